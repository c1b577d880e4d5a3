import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { fixtureEnv as env } from "../fixture-env.ts";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import type { UpstreamConfig } from "../../../worker/hub/upstreams.ts";
import { mcpApp } from "../../../worker/mcp/hono.ts";
import { signIn } from "../../../worker/oauth/index.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { readReply } from "../../support/reply.ts";
import { alpha } from "../hub/support.ts";
import { accessToken, Browser, ORIGIN } from "./browser.ts";

// A hub behind sign-in, with one server of its own Worker and two outside it (another Worker
// behind a binding): one sent the caller's own token, one sent nothing.
const BOUND_SECRET = `bound-worker-${crypto.randomUUID()}`;
const seen = new Map<string, (string | null)[]>();
const outside = (name: string, credentials: "forward" | "none"): UpstreamConfig => ({
  name,
  path: "/",
  credentials,
  binding: () =>
    ({
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        const { method } = await request.clone().json<{ method: string }>();
        if (method === "tools/call")
          seen.set(name, [...(seen.get(name) ?? []), request.headers.get("Authorization")]);
        // Another Worker, with a secret of its own.
        return mcpApp(alpha).fetch(
          request,
          { ...env, EDGEMCP_SECRET: BOUND_SECRET },
          {
            waitUntil: () => {},
            passThroughOnException: () => {},
            props: {},
          },
        );
      },
    }) as unknown as Fetcher,
});
const auth = signIn({
  endpoints: [
    { path: "/mcp", name: "The hub", baseline: ["mcp"] },
    { path: "/mcp/alpha", name: "Alpha", baseline: ["mcp"] },
  ],
  scopes: { mcp: "Use the servers as you" },
  demoUsers: [{ id: "carol", name: "Carol" }],
});
const app = new Hono<{ Bindings: Cloudflare.Env }>();
for (const path of auth.paths)
  app.all(path, (c) => auth.fetch(c.req.raw, c.env, c.executionCtx as ExecutionContext));
const own = { name: "alpha", app: mcpApp(alpha, { authenticate: auth.authenticate() }) };
app.route("/mcp/alpha", own.app);
app.route(
  "/mcp",
  mcpApp(
    hubServer({
      name: "signed-in-hub",
      upstreams: [own, outside("forwarded", "forward"), outside("plain", "none")],
    }),
    { authenticate: auth.authenticate() },
  ),
);
const send = async (request: Request) => {
  const ctx = createExecutionContext();
  const response = await app.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
};
const add = async (name: string, token: string) =>
  (
    await readReply(
      await send(
        // At the hub's endpoint.
        new Request(
          `${ORIGIN}/mcp`,
          mcpRequest(
            "tools/call",
            { name, arguments: { a: 1, b: 2 } },
            { headers: { Authorization: `Bearer ${token}` } },
          ),
        ),
      ),
      "tools/call",
    )
  ).final;

describe("a hub token and the hub's upstreams", () => {
  it("reaches a server of this Worker, but is never sent to an upstream outside it", async () => {
    const { access } = await accessToken(
      { user: "carol", resource: `${ORIGIN}/mcp` },
      new Browser(send),
    );
    const ownCall = await add("alpha__add", access);
    expect(ownCall?.result?.structuredContent, JSON.stringify(ownCall)).toEqual({ sum: 3 });
    // An upstream outside that is sent no credential is called as before.
    const plain = await add("plain__add", access);
    expect(plain?.result?.structuredContent, JSON.stringify(plain)).toEqual({ sum: 3 });
    const refused = await add("forwarded__add", access);
    expect(JSON.stringify(refused)).toMatch(
      /token from this Worker's sign-in is good at this Worker only: it is not sent outside it/,
    );
    expect(JSON.stringify(refused)).not.toContain(access);
    expect(seen.get("forwarded")).toBeUndefined();
    // An upstream sent no credential is called as before.
    expect(seen.get("plain")).toEqual([null]);
  });
});
