import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { Limits } from "../../../worker/mcp/ports.ts";
import { relayApp } from "../../../worker/relay/index.ts";
import { withLoggedErrors } from "../../support/logged-errors.ts";
import { LOCAL, refusal, targets } from "./support.ts";

const VARS = { RELAY_DEV: "on", COORDINATION_TIMEOUT_MS: "200" };

/** The relay mounted as the Worker mounts it, counting open exchanges with `limits`. */
function relayOver(limits: Limits) {
  const app = new Hono<{ Bindings: Cloudflare.Env }>();
  app.route("/relay", relayApp({ limits: () => limits }));
  const call = (path: string, headers: Record<string, string>, body: string | null = null) =>
    Promise.resolve(
      app.fetch(
        new Request(`${LOCAL}${path}`, {
          method: "POST",
          headers: { Origin: LOCAL, ...headers },
          body,
        }),
        { ...env, ...VARS },
        createExecutionContext(),
      ),
    );
  return async (target: string) => {
    const { token } = await (await call("/relay/token", {})).json<{ token: string }>();
    return call("/relay", { "Relay-Target": target, "Relay-Token": token }, "{}");
  };
}

/** A limiter whose every call answers as `acquire` does; counts what it was asked. */
function limiter(acquire: () => Promise<boolean>) {
  const asked = { acquire: 0, release: 0 };
  const limits: Limits = {
    take: () => Promise.resolve(undefined),
    acquire: () => {
      asked.acquire++;
      return acquire();
    },
    release: () => {
      asked.release++;
      return Promise.resolve();
    },
  };
  return { limits, asked };
}

describe("the relay when its rate limiter fails (it fails closed)", () => {
  it("refuses with 503 unavailable, and Retry-After, when the limiter does not answer in time", async () => {
    const { limits, asked } = limiter(() => new Promise<boolean>(() => {}));
    const { value: response, logged } = await withLoggedErrors(() =>
      relayOver(limits)(`${targets()}/echo`),
    );
    expect(response.headers.get("Retry-After")).toBe("1");
    expect(await refusal(response)).toEqual({
      status: 503,
      header: "unavailable",
      rule: "unavailable",
      message: "The rate limiter did not answer in time (0.2 s). Try again shortly.",
    });
    expect(asked).toEqual({ acquire: 1, release: 0 });
    expect(logged).toBe("The rate limiter did not answer within 200 ms");
  });

  it("refuses with 503 unavailable, without the failure's details, when the limiter throws", async () => {
    const { limits } = limiter(() =>
      Promise.reject(new Error("storage reset: shard 7 at 10.0.0.3")),
    );
    const { value: response, logged } = await withLoggedErrors(() =>
      relayOver(limits)(`${targets()}/echo`),
    );
    const found = await refusal(response);
    expect(found).toMatchObject({ status: 503, rule: "unavailable" });
    expect(found.message).toBe("The rate limiter is unavailable right now. Try again shortly.");
    expect(logged).toContain("shard 7");
  });

  it("relays as before when the limiter answers, and gives the slot back at the end", async () => {
    const { limits, asked } = limiter(() => Promise.resolve(true));
    const response = await relayOver(limits)(`${targets()}/echo`);
    expect(response.status).toBe(200);
    await response.text();
    await expect.poll(() => asked).toEqual({ acquire: 1, release: 1 });
  });

  it("still answers 429 when the limiter says the caller's slots are taken", async () => {
    const { limits } = limiter(() => Promise.resolve(false));
    const found = await refusal(await relayOver(limits)(`${targets()}/echo`));
    expect(found).toMatchObject({ status: 429, rule: "concurrency" });
  });
});
