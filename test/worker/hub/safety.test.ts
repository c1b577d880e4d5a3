import { exports } from "cloudflare:workers";
import { fixtureEnv as env } from "../fixture-env.ts";
import { describe, expect, it } from "vitest";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import { remoteUpstreams, type UpstreamConfig } from "../../../worker/hub/upstreams.ts";
import { mcpApp } from "../../../worker/mcp/hono.ts";
import { bearerTokens } from "../../../worker/mcp/index.ts";
import { legacyRequest, mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";
import { alpha, alphaUnless, hub, inProcess, send } from "./support.ts";

/** The sealing secret of the Workers the credential tests reach through a binding. */
const BOUND_SECRET = `bound-worker-${crypto.randomUUID()}`;

// A remote upstream nobody listens on, whose URL carries a path and a key in its query.
const LEAKY_URL = "http://127.0.0.1:9/private/mcp?api_key=s3cret-key";
const leakyHub = serve(
  hubServer({
    name: "leaky-hub",
    listTimeoutMs: 2_000,
    upstreams: () => [inProcess("alpha", alpha), { name: "remote", url: LEAKY_URL }],
  }),
);
const leaky = (method: string, params: Record<string, unknown> = {}) =>
  leakyHub.send(mcpRequest(method, params), method);

const leaks = (text: string) => /127\.0\.0\.1|private\/mcp|api_key|s3cret/.test(text);

describe("the hub never shows a client an upstream's URL", () => {
  it("names an unreachable upstream in discover, and says how it failed, without its URL", async () => {
    const { final } = await leaky("server/discover");
    expect(final?.result.instructions).toMatch(/remote \(unavailable: not reachable\)/);
    expect(leaks(JSON.stringify(final))).toBe(false);
  });

  it("reports it in the status resource the same way", async () => {
    const { final } = await leaky("resources/read", { uri: "edgemcp://hub/upstreams" });
    const status = JSON.parse(final?.result.contents[0].text);
    expect(status.upstreams).toEqual([
      expect.objectContaining({ name: "alpha", health: "ok", tools: 4, credentials: "forward" }),
      expect.objectContaining({
        name: "remote",
        health: "unavailable",
        reason: "not reachable",
        tools: 0,
        credentials: "none",
      }),
    ]);
    expect(status.upstreams[0].latencyMs).toEqual(expect.any(Number));
    expect(leaks(JSON.stringify(final))).toBe(false);
  });

  it("answers a call to its tools with 'unavailable', not 'Unknown tool', and no URL", async () => {
    const { final } = await leaky("tools/call", { name: "remote__anything", arguments: {} });
    expect(final?.result).toMatchObject({
      isError: true,
      content: [
        {
          text: 'The tool "remote__anything" belongs to upstream "remote", which is unavailable right now (not reachable); try again later.',
        },
      ],
    });
    expect(leaks(JSON.stringify(final))).toBe(false);
    const prompt = await leaky("prompts/get", { name: "remote__p", arguments: {} });
    expect(prompt.final?.error).toMatchObject({ code: -32603 });
    expect(prompt.final?.error.message).toMatch(/upstream "remote", which is unavailable/);
  });

  it("answers a down in-process upstream's tools with 'unavailable' too", async () => {
    const { final } = await send("tools/call", { name: "down__whatever", arguments: {} });
    expect(final?.result.isError).toBe(true);
    expect(final?.result.content[0].text).toMatch(
      /upstream "down", which is unavailable right now \(HTTP 503\)/,
    );
  });

  it("still answers an unknown upstream's name with Unknown tool", async () => {
    const { final } = await send("tools/call", { name: "nobody__x", arguments: {} });
    expect(final?.error?.message).toMatch(/Unknown tool "nobody__x"/);
  });
});

describe("the hub's results carry one identity in both eras", () => {
  it("says edgemcp's hub, not the upstream, in a 2026 result, and names the upstream apart", async () => {
    const { final } = await send("tools/call", { name: "alpha__add", arguments: { a: 1, b: 2 } });
    expect(final?.result._meta["io.modelcontextprotocol/serverInfo"].name).toBe("test-hub");
    expect(final?.result._meta["dev.edgemcp/upstream"]).toEqual({ server: "alpha" });
  });

  it("does not pass the upstream's serverInfo to a 2025 client", async () => {
    const { final } = await hub.send(
      legacyRequest("tools/call", { name: "alpha__add", arguments: { a: 1, b: 2 } }),
      "tools/call",
      "2025",
    );
    expect(final?.result.structuredContent).toEqual({ sum: 3 });
    expect(final?.result._meta?.["io.modelcontextprotocol/serverInfo"]).toBeUndefined();
    expect(final?.result._meta["dev.edgemcp/upstream"]).toEqual({ server: "alpha" });
  });

  it("offers logging in discover, since it relays its upstreams' log messages", async () => {
    const { final } = await send("server/discover");
    expect(final?.result.capabilities.logging).toEqual({});
  });
});

describe("credentials per upstream", () => {
  /** An upstream reached through a binding that records the Authorization header it gets. */
  const recording = (name: string, seen: (string | null)[], extra: Partial<UpstreamConfig> = {}) =>
    ({
      name,
      path: "/",
      binding: () =>
        ({
          fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
            const request = new Request(input, init);
            const { method } = await request.clone().json<{ method: string }>();
            if (method === "tools/call") seen.push(request.headers.get("Authorization"));
            // Another Worker behind a service binding, with a secret of its own (not localhost).
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
      ...extra,
    }) as UpstreamConfig;

  const call = (hub: ReturnType<typeof serve>, name: string) =>
    hub.send(
      mcpRequest(
        "tools/call",
        { name, arguments: { a: 1, b: 1 } },
        { headers: { Authorization: "Bearer caller-token-0123456789" } },
      ),
      "tools/call",
    );

  it("forwards the caller's token, sends the operator's secret, or sends nothing, as configured", async () => {
    const forwarded: (string | null)[] = [];
    const operator: (string | null)[] = [];
    const none: (string | null)[] = [];
    const hub = serve(
      hubServer({
        name: "credentials-hub",
        upstreams: [
          recording("fwd", forwarded, { credentials: "forward" }),
          recording("op", operator, { credentials: { secret: "UPSTREAM_TOKEN" } }),
          recording("anon", none, { credentials: "none" }),
        ],
      }),
      { authenticate: bearerTokens({ variable: "API_TOKENS" }) },
      {
        API_TOKENS: "caller-token-0123456789=carol",
        UPSTREAM_TOKEN: "operator-secret",
      } as Partial<Record<keyof Cloudflare.Env, unknown>>,
    );
    for (const name of ["fwd__add", "op__add", "anon__add"])
      expect((await call(hub, name)).final?.result.structuredContent).toEqual({ sum: 2 });
    expect(forwarded).toEqual(["Bearer caller-token-0123456789"]);
    expect(operator).toEqual(["Bearer operator-secret"]);
    expect(none).toEqual([null]);
  });

  it("uses the operator's secret for anonymous callers only where the operator allowed them", async () => {
    const guarded: (string | null)[] = [];
    const open: (string | null)[] = [];
    const hub = serve(
      hubServer({
        name: "operator-callers-hub",
        upstreams: [
          recording("op", guarded, { credentials: { secret: "UPSTREAM_TOKEN" } }),
          recording("pub", open, {
            credentials: { secret: "UPSTREAM_TOKEN", callers: "everyone" },
          }),
        ],
      }),
      { authenticate: bearerTokens({ variable: "API_TOKENS" }), anonymous: "all" },
      {
        API_TOKENS: "caller-token-0123456789=carol",
        UPSTREAM_TOKEN: "operator-secret",
      } as Partial<Record<keyof Cloudflare.Env, unknown>>,
    );
    const anonymous = (name: string) =>
      hub.send(mcpRequest("tools/call", { name, arguments: { a: 1, b: 1 } }), "tools/call");
    const refused = await anonymous("op__add");
    expect(refused.final?.error?.message).toMatch(
      /operator's credential, for callers with a bearer token only/,
    );
    expect(guarded).toEqual([]);
    expect((await anonymous("pub__add")).final?.result.structuredContent).toEqual({ sum: 2 });
    expect(open).toEqual(["Bearer operator-secret"]);
    expect((await call(hub, "op__add")).final?.result.structuredContent).toEqual({ sum: 2 });
    expect(guarded).toEqual(["Bearer operator-secret"]);
  });

  it("reports an upstream whose secret is not set as unavailable, and never calls it", async () => {
    const seen: (string | null)[] = [];
    const hub = serve(
      hubServer({
        name: "unset-secret-hub",
        upstreams: [recording("op", seen, { credentials: { secret: "NOT_SET_ANYWHERE" } })],
      }),
    );
    const { final } = await hub.send(mcpRequest("server/discover"), "server/discover");
    expect(final?.result.instructions).toMatch(/op \(unavailable: failed\)/);
    expect(seen).toEqual([]);
  });

  it("reads credentials from HUB_UPSTREAMS and leaves out an entry that puts one in its headers", () => {
    const warnings: string[] = [];
    const list = remoteUpstreams(
      JSON.stringify([
        { name: "ok", url: "https://a.example/mcp", credentials: { secret: "A_TOKEN" } },
        { name: "fwd", url: "https://b.example/mcp", credentials: "forward" },
        { name: "bad", url: "https://c.example/mcp", headers: { Authorization: "Bearer x" } },
        { name: "bad2", url: "https://d.example/mcp", headers: { "X-Api-Key": "x" } },
        { name: "plain", url: "https://e.example/mcp", headers: { "X-Region": "eu" } },
      ]),
      (message) => warnings.push(message),
    );
    expect(list.map((u) => u.name)).toEqual(["ok", "fwd", "plain"]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      /"bad" is left out.*wrangler secret put NAME.*"credentials": \{"secret": "NAME"\}/,
    );
    expect(warnings[1]).toMatch(/"header": "X-Api-Key"/);
    expect(warnings.join()).not.toMatch(/Bearer x/);
  });
});

describe("callers are kept apart", () => {
  /** A hub whose upstream counts connects per caller token and fails every request of mallory's. */
  function isolationHub() {
    const connects = new Map<string, number>();
    const hub = serve(
      hubServer({
        name: "isolation-hub",
        pool: { maxClients: 4, maxPerCaller: 2 },
        upstreams: (env) => [
          alphaUnless(env, "alpha", (sent, request) => {
            const who = request.headers.get("Authorization") ?? "listing";
            if (sent.method === "server/discover") connects.set(who, (connects.get(who) ?? 0) + 1);
            return who.includes("mallory") ? new Response("no", { status: 503 }) : undefined;
          }),
        ],
      }),
      { authenticate: bearerTokens({ variable: "API_TOKENS" }) },
      { API_TOKENS: "bob-token-0123456789=bob,mallory-token-0123456789=mallory" },
    );
    const as = (who: string, method: string, params: Record<string, unknown>, caps = {}) =>
      hub.send(
        mcpRequest(method, params, {
          headers: { Authorization: `Bearer ${who}-token-0123456789` },
          capabilities: caps,
        }),
        method,
      );
    return { connects, as };
  }

  it("one caller's many capability sets and failures neither evict another's connection nor change its catalog", async () => {
    const { connects, as } = isolationHub();
    const add = { name: "alpha__add", arguments: { a: 2, b: 2 } };
    expect((await as("bob", "tools/call", add)).final?.result.structuredContent).toEqual({
      sum: 4,
    });
    const before = (await as("bob", "tools/list", {})).final?.result.tools;
    // Mallory declares a new capability set on every call, and every one of them fails upstream.
    for (let i = 0; i < 10; i++) {
      const { final } = await as("mallory", "tools/call", add, { experimental: { [`x${i}`]: {} } });
      expect(final?.result.isError).toBe(true);
      expect(final?.result.content[0].text).toMatch(/Upstream "alpha" is unavailable: HTTP 503/);
    }
    expect((await as("bob", "tools/call", add)).final?.result.structuredContent).toEqual({
      sum: 4,
    });
    expect((await as("bob", "tools/list", {})).final?.result.tools).toEqual(before);
    expect(connects.get("Bearer bob-token-0123456789")).toBe(1);
    expect(connects.get("listing")).toBe(1);
  });
});

describe("the hub's path", () => {
  it.each(["/mcp/", "/mcp/notes/"])(
    "serves %s like the path without its trailing slash",
    async (path) => {
      const request = mcpRequest("server/discover");
      const response = await exports.default.fetch(
        new Request(new URL(path, request.url), request),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
      const body = await response.json<{ result: { _meta: Record<string, { name: string }> } }>();
      expect(body.result._meta["io.modelcontextprotocol/serverInfo"]?.name).toBe(
        path === "/mcp/" ? "edgemcp-hub" : "edgemcp-notes",
      );
    },
  );
});
