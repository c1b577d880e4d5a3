import { Hono } from "hono";
import { RpcError } from "../../shared/protocol/errors.ts";
import { AuthError, type Authenticate, type Caller } from "../auth/bearer.ts";
import { coordinationTimeoutMs, guardedLimits } from "../durable/guarded-ports.ts";
import type { Limits } from "../mcp/ports.ts";
import { relayExchange } from "./exchange.ts";
import { mintPageToken, openPageToken, PAGE_TOKEN_TTL_MS } from "./page-token.ts";
import { RelayRefusal, refusalResponse } from "./refusal.ts";
import { BOUND_VARIABLES, relaySettings, type RelaySettings } from "./settings.ts";

/** What the relay needs from the Worker that mounts it. */
export type RelayOptions = {
  /** The Worker's authentication: once it is configured, the relay requires it too. */
  authenticate?: Authenticate;
  /**
   * Counts each caller's open relays across instances; without it, per instance. Each call on
   * it is bounded by `COORDINATION_TIMEOUT_MS` (10 s): one that fails or does not answer in
   * time refuses the exchange with 503 "unavailable" (the relay fails closed).
   */
  limits?: (env: Cloudflare.Env) => Limits | undefined;
};

const LEASE_SLACK_MS = 60_000;
const local = new Map<string, number>();

/** Holds one of the caller's relay slots; the returned function gives it back (once). */
async function holdSlot(
  limits: Limits | undefined,
  caller: string,
  settings: RelaySettings,
  waitUntil: (work: Promise<unknown>) => void,
): Promise<() => void> {
  const max = settings.bounds.concurrent;
  const full = () =>
    new RelayRefusal(
      429,
      "concurrency",
      `This caller already has ${max} relayed exchanges open (${BOUND_VARIABLES.concurrent}); close one first.`,
      { "Retry-After": "1" },
    );
  let released = false;
  if (limits) {
    const id = crypto.randomUUID();
    const ttlMs = settings.bounds.totalMs + LEASE_SLACK_MS;
    if (!(await limits.acquire(caller, { kind: "relay", id, max, ttlMs }))) throw full();
    return () => {
      if (released) return;
      released = true;
      // The body may end after the response was sent: keep the Worker up for the release.
      waitUntil(limits.release(caller, "relay", id).catch(() => {}));
    };
  }
  const held = local.get(caller) ?? 0;
  if (held >= max) throw full();
  local.set(caller, held + 1);
  return () => {
    if (released) return;
    released = true;
    const now = (local.get(caller) ?? 1) - 1;
    if (now <= 0) local.delete(caller);
    else local.set(caller, now);
  };
}

async function callerOf(
  options: RelayOptions,
  request: Request,
  env: Cloudflare.Env,
): Promise<Caller | undefined> {
  const configured = options.authenticate?.configured?.(env) ?? options.authenticate !== undefined;
  if (!options.authenticate || !configured) return undefined;
  const refuse = (why: string) =>
    new RelayRefusal(
      401,
      "authentication",
      `${why} This Worker requires its credentials (API_TOKENS or a JWT) for the relay too: send Authorization: Bearer <token> to POST /relay/token.`,
    );
  let caller: Caller | undefined;
  try {
    caller = await options.authenticate(request, env);
  } catch (error) {
    if (error instanceof AuthError) throw refuse("The token was refused.");
    throw error;
  }
  if (!caller) throw refuse("No token was sent.");
  return caller;
}

const addressOf = (request: Request) => `ip:${request.headers.get("CF-Connecting-IP") ?? "local"}`;

/**
 * The relay: `POST /relay/token` gives this Worker's page its token, and `POST /relay` forwards
 * one exchange to the target it names (see exchange.ts). Off on a deployment until
 * `RELAY_HOSTS` lists hosts; under `npm start` (`RELAY_DEV=on` on a loopback host) it reaches
 * public https hosts and loopback.
 */
export function relayApp(options: RelayOptions = {}) {
  const app = new Hono<{ Bindings: Cloudflare.Env }>();
  const answer = async (run: () => Promise<Response>) => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof RelayRefusal) return refusalResponse(error);
      // The rate limiter failed or did not answer in time (logged where it was bounded).
      if (error instanceof RpcError && error.httpStatus === 503)
        return refusalResponse(
          new RelayRefusal(503, "unavailable", error.message, { "Retry-After": "1" }),
        );
      console.error("relay failed", error);
      return refusalResponse(
        new RelayRefusal(500, "misconfigured", "The relay failed; see the Worker's log."),
      );
    }
  };
  const refuseWhenOff = (settings: RelaySettings) => {
    if (!settings.dev && settings.hosts.length === 0)
      throw new RelayRefusal(
        403,
        "relay-off",
        'The relay is off on this deployment: list the hosts it may reach in RELAY_HOSTS (e.g. "api.example.com,*.example.org").',
      );
  };

  app.post("/token", (c) =>
    answer(async () => {
      const settings = relaySettings(c.env, c.req.raw);
      const caller = await callerOf(options, c.req.raw, c.env);
      const token = await mintPageToken(c.env, c.req.raw, {
        caller: caller ? `sub:${caller.subject}` : addressOf(c.req.raw),
      });
      const mode = settings.dev ? "local" : settings.hosts.length > 0 ? "hosts" : "off";
      return Response.json(
        { token, expiresInMs: PAGE_TOKEN_TTL_MS, mode },
        { headers: { "Cache-Control": "no-store" } },
      );
    }),
  );

  app.post("/", (c) =>
    answer(async () => {
      const settings = relaySettings(c.env, c.req.raw);
      refuseWhenOff(settings);
      const { caller } = await openPageToken(c.env, c.req.raw);
      const configured =
        options.authenticate?.configured?.(c.env) ?? options.authenticate !== undefined;
      if (configured && !caller.startsWith("sub:"))
        throw new RelayRefusal(
          401,
          "authentication",
          "This Worker requires its credentials for the relay: get a new page token from POST /relay/token with Authorization: Bearer <token>.",
        );
      const limits = options.limits?.(c.env);
      const bounded = limits && guardedLimits(limits, coordinationTimeoutMs(c.env));
      const release = await holdSlot(bounded, caller, settings, (work) => {
        try {
          c.executionCtx.waitUntil(work);
        } catch {
          // Called without an execution context (a test calling the app): nothing to extend.
        }
      });
      return relayExchange(c.req.raw, { settings, done: release });
    }),
  );

  app.all("*", (c) =>
    answer(async () => {
      throw new RelayRefusal(
        405,
        "method",
        `The relay takes POST /relay (the exchange) and POST /relay/token, not ${c.req.method} ${new URL(c.req.url).pathname}.`,
      );
    }),
  );
  return app;
}
