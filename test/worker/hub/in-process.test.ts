import { fixtureEnv as env } from "../fixture-env.ts";
import { accessPolicy } from "../../../worker/auth/policy.ts";
import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import { connect, type McpClient } from "../../../shared/client/index.ts";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import { transportOf, type UpstreamConfig } from "../../../worker/hub/upstreams.ts";
import {
  bearerTokens,
  defineServer,
  inProcessEntry,
  mcpHandler,
  type McpAppOptions,
  type RequestLog,
  inputRounds,
} from "../../../worker/mcp/index.ts";
import { mcpApp } from "../../../worker/mcp/hono.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import type { Message, Reply } from "../../support/reply.ts";
import { serve } from "../custom-server.ts";
import { outcome, SAME_ANSWER_CASES, SAME_ANSWER_TOOLS } from "./support.ts";

const upstream = defineServer({
  name: "upstream",
  version: "1",
  input: inputRounds,
  pageSize: 2,
  tools: [...SAME_ANSWER_TOOLS],
});

const TOKENS = "hub-token-0123456789abcdef=ann";

/**
 * The same upstream app behind two hubs: `fast` names the app itself (an edgemcp endpoint, so
 * the hub hands it messages), `slow` a fetch wrapper around it (so the hub must use fetch).
 * `fetched` counts the app's fetch calls; `served` what the upstream's pipeline logged.
 */
function pair(options: McpAppOptions = {}, bindings: Record<string, unknown> = {}) {
  const served: RequestLog[] = [];
  const app = mcpApp(upstream, { ...options, log: (entry) => void served.push(entry) });
  const fetched = vi.spyOn(app, "fetch");
  const hubOf = (config: UpstreamConfig) =>
    serve(
      hubServer({ name: "hub", upstreams: [config] }),
      { authenticate: bearerTokens({ variable: "API_TOKENS" }) },
      { API_TOKENS: TOKENS, ...bindings },
    );
  const fast = hubOf({ name: "up", app });
  const slow = hubOf({
    name: "up",
    app: { fetch: (request, env, ctx) => app.fetch(request, env, ctx) },
  });
  return { app, fetched, served, fast, slow };
}

const AUTH = { Authorization: "Bearer hub-token-0123456789abcdef" };

/** A request to a hub as `ann`, built anew for each hub (a Request is read once). */
const request =
  (
    method: string,
    params: Record<string, unknown>,
    options: Parameters<typeof mcpRequest>[2] = {},
  ) =>
  () =>
    mcpRequest(method, params, { id: 7, ...options, headers: { ...AUTH, ...options.headers } });

/** A reply without what is sealed anew each time (requestState, cursors). */
function comparable(reply: Reply): { status: number; type: string; messages: Message[] } {
  const sealed = (key: string, value: unknown) =>
    (key === "requestState" || key === "nextCursor") && typeof value === "string"
      ? "<sealed>"
      : value;
  return {
    status: reply.status,
    type: reply.contentType,
    messages: JSON.parse(JSON.stringify(reply.messages), sealed) as Message[],
  };
}

/** The same request to both hubs; the fast one never calls the app's fetch (nor lists with it). */
const both = async (hubs: ReturnType<typeof pair>, method: string, make: () => Request) => {
  const before = hubs.fetched.mock.calls.length;
  const fast = await hubs.fast.send(make(), method);
  expect(hubs.fetched.mock.calls.length).toBe(before);
  const slow = await hubs.slow.send(make(), method);
  return { fast, slow };
};

describe("the hub's in-process upstreams made by mcpApp or mcpHandler", () => {
  it("are handed their messages: the app's fetch is never called, and the upstream serves them", async () => {
    const hubs = pair();
    const before = hubs.fetched.mock.calls.length;
    const { final } = await hubs.fast.send(
      request("tools/call", { name: "up__add", arguments: { a: 2, b: 3 } })(),
      "tools/call",
    );
    expect(final?.result.structuredContent).toEqual({ sum: 5 });
    expect(hubs.fetched.mock.calls.length).toBe(before);
    expect(hubs.served.map((entry) => entry.method)).toContain("tools/call");
    // The fetch wrapper around the same app goes through fetch, and answers the same.
    await hubs.slow.send(
      request("tools/call", { name: "up__add", arguments: { a: 2, b: 3 } })(),
      "tools/call",
    );
    expect(hubs.fetched.mock.calls.length).toBeGreaterThan(before);
  });

  it("have an in-process entry; a plain fetch handler or a Hono app around one has none", () => {
    expect(inProcessEntry(mcpApp(upstream))).toBeTypeOf("function");
    expect(inProcessEntry(mcpHandler(upstream))).toBeTypeOf("function");
    const outer = new Hono().route("/", mcpApp(upstream));
    expect(inProcessEntry(outer)).toBeUndefined();
    expect(inProcessEntry({ fetch: () => new Response() })).toBeUndefined();
  });

  it("answer exactly as over fetch: a result, an isError result, a -32602, a list", async () => {
    const hubs = pair();
    const cases: [string, () => Request][] = [
      ["tools/call", request("tools/call", { name: "up__add", arguments: { a: 2, b: 3 } })],
      ["tools/call", request("tools/call", { name: "up__add", arguments: { a: "x", b: 3 } })],
      ["tools/call", request("tools/call", { name: "up__fail", arguments: {} })],
      ["tools/call", request("tools/call", { name: "up__strict", arguments: {} })],
      ["tools/list", request("tools/list", {})],
    ];
    for (const [method, make] of cases) {
      const { fast, slow } = await both(hubs, method, make);
      expect(comparable(fast)).toEqual(comparable(slow));
    }
    // The upstream's tools come two to a page: the hub walked its pages.
    const list = await hubs.fast.send(request("tools/list", {})(), "tools/list");
    expect(list.final?.result.tools).toHaveLength(7);
    const strict = await hubs.fast.send(
      request("tools/call", { name: "up__strict", arguments: {} })(),
      "tools/call",
    );
    expect(strict.final?.error.code).toBe(-32602);
    const failed = await hubs.fast.send(
      request("tools/call", { name: "up__fail", arguments: {} })(),
      "tools/call",
    );
    expect(failed.final?.result.isError).toBe(true);
  });

  it("answer a call with progress as over fetch, as an SSE stream", async () => {
    const hubs = pair();
    const make = request(
      "tools/call",
      { name: "up__count", arguments: { to: 3 } },
      { meta: { progressToken: "p" } },
    );
    const { fast, slow } = await both(hubs, "tools/call", make);
    expect(fast.contentType).toMatch(/^text\/event-stream/);
    expect(fast.messages.filter((m) => m.method === "notifications/progress")).toHaveLength(3);
    expect(comparable(fast)).toEqual(comparable(slow));
  });

  it("relay an input_required round as over fetch, and its answer", async () => {
    const hubs = pair();
    const caps = { capabilities: { elicitation: {} } };
    const first = await both(
      hubs,
      "tools/call",
      request("tools/call", { name: "up__ask", arguments: {} }, caps),
    );
    expect(first.fast.final?.result.resultType).toBe("input_required");
    expect(comparable(first.fast)).toEqual(comparable(first.slow));
    const answer = (reply: Reply) =>
      request(
        "tools/call",
        {
          name: "up__ask",
          arguments: {},
          requestState: reply.final?.result.requestState,
          inputResponses: { up__who: { action: "accept", content: { name: "Ann" } } },
        },
        caps,
      )();
    const fast = await hubs.fast.send(answer(first.fast), "tools/call");
    const slow = await hubs.slow.send(answer(first.slow), "tools/call");
    expect(fast.final?.result.content).toEqual([{ type: "text", text: "hi Ann" }]);
    expect(comparable(fast)).toEqual(comparable(slow));
  });

  it("still authenticate the forwarded credential: one the upstream accepts names its caller", async () => {
    const hubs = pair(
      { authenticate: bearerTokens({ variable: "UPSTREAM_TOKENS" }) },
      { UPSTREAM_TOKENS: TOKENS },
    );
    const { fast, slow } = await both(
      hubs,
      "tools/call",
      request("tools/call", { name: "up__whoami", arguments: {} }),
    );
    expect(fast.final?.result.content).toEqual([{ type: "text", text: "ann" }]);
    expect(comparable(fast)).toEqual(comparable(slow));
  });

  it("still authenticate the forwarded credential: one the upstream rejects fails as over fetch", async () => {
    const hubs = pair(
      { authenticate: bearerTokens({ variable: "UPSTREAM_TOKENS" }) },
      { UPSTREAM_TOKENS: "another-token-0123456789abcdef=bob" },
    );
    const { fast, slow } = await both(
      hubs,
      "tools/call",
      request("tools/call", { name: "up__whoami", arguments: {} }),
    );
    expect(fast.final?.result.content[0].text).toMatch(
      /refused the hub.s credentials \(HTTP 401\)/,
    );
    expect(comparable(fast)).toEqual(comparable(slow));
    expect(hubs.served.find((entry) => entry.method === "tools/call")).toBeUndefined();
  });

  it("still apply the upstream's policy: a denied tool is denied as over fetch", async () => {
    const hubs = pair(
      {
        authenticate: bearerTokens({ variable: "UPSTREAM_TOKENS" }),
        policy: accessPolicy({
          rules: [{ who: "subject:ann", names: ["secret"], effect: "deny" }],
        }),
      },
      { UPSTREAM_TOKENS: TOKENS },
    );
    const denied = await both(
      hubs,
      "tools/call",
      request("tools/call", { name: "up__secret", arguments: {} }),
    );
    expect(denied.fast.final?.result.content[0].text).toMatch(
      /refused the hub.s credentials \(HTTP 403\)/,
    );
    expect(comparable(denied.fast)).toEqual(comparable(denied.slow));
    const allowed = await both(
      hubs,
      "tools/call",
      request("tools/call", { name: "up__add", arguments: { a: 1, b: 1 } }),
    );
    expect(allowed.fast.final?.result.structuredContent).toEqual({ sum: 2 });
  });
});

/**
 * Two clients of one upstream app, as the hub connects them: `handed` with the app's in-process
 * entry, `fetched` with fetch only. What each gets back must be the same.
 */
async function clients(): Promise<{ handed: McpClient; fetched: McpClient; calls: () => number }> {
  const app = mcpApp(upstream);
  const spy = vi.spyOn(app, "fetch");
  const { url, fetch, send } = transportOf({ name: "up", app }, env);
  expect(send).toBeTypeOf("function");
  const options = {
    capabilities: { elicitation: {} },
    handlers: { elicitation: () => Promise.reject(new Error("not asked: MRTR returns instead")) },
  };
  const handed = await connect(url, { ...options, fetch, ...(send ? { send } : {}) });
  const fetched = await connect(url, { ...options, fetch });
  return { handed, fetched, calls: () => spy.mock.calls.length };
}

describe("what the hub's client gets from an in-process upstream", () => {
  const cases = SAME_ANSWER_CASES;

  it("is deep-equal to what fetch gets: results, an input_required round, errors, a list page", async () => {
    const { handed, fetched, calls } = await clients();
    const before = calls();
    const fast = [];
    for (const [method, params] of cases) fast.push(await outcome(handed.request(method, params)));
    // The handed client never went through the app's fetch.
    expect(calls()).toBe(before);
    const slow = [];
    for (const [method, params] of cases) slow.push(await outcome(fetched.request(method, params)));
    expect(fast).toEqual(slow);
    expect(fast[3]).toMatchObject({ kind: "rpc", code: -32602 });
    expect(fast[4]).toMatchObject({ resultType: "input_required" });
    const page = await handed.request("tools/list", {});
    expect(page.tools).toHaveLength(2);
    expect(page.nextCursor).toBeTypeOf("string");
  });

  it("is deep-equal to what fetch gets for a call with progress, read from the stream", async () => {
    const { handed, fetched } = await clients();
    const run = async (client: McpClient) => {
      const progress: unknown[] = [];
      const params = { name: "count", arguments: { to: 3 } };
      const result = await client.request("tools/call", params, {
        onProgress: (p) => progress.push(p),
      });
      return { result, progress };
    };
    const fast = await run(handed);
    expect(fast.progress).toHaveLength(3);
    expect(fast).toEqual(await run(fetched));
  });
});
