import { describe, expect, it, vi } from "vitest";
import { connect, type McpClient } from "../../../shared/client/index.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import { accessPolicy } from "../../../worker/auth/policy.ts";
import { DirectUpstream } from "../../../worker/hub/direct.ts";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import { directTarget, transportOf } from "../../../worker/hub/upstreams.ts";
import {
  bearerTokens,
  defineServer,
  inputRounds,
  listenFromSource,
  tool,
  type McpAppOptions,
  type RequestLog,
} from "../../../worker/mcp/index.ts";
import { mcpApp } from "../../../worker/mcp/hono.ts";
import { inProcessEntry, registerEntry } from "../../../worker/mcp/request/in-process.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";
import { fixtureEnv as env } from "../fixture-env.ts";
import { outcome, SAME_ANSWER_CASES, SAME_ANSWER_TOOLS } from "./support.ts";

/** Whether the `wait` tool saw its signal abort, by the label it was called with. */
const stopped = new Map<string, string>();

const upstream = defineServer({
  name: "upstream",
  version: "1",
  input: inputRounds,
  pageSize: 2,
  logging: true,
  tools: [
    ...SAME_ANSWER_TOOLS,
    tool({
      name: "crash",
      run: () => {
        throw new Error("a secret detail of the upstream");
      },
    }),
    tool({
      name: "chatty",
      run: (_a, ctx) => {
        ctx.log("debug", "quiet detail");
        ctx.log("warning", { disk: "low" }, "storage");
        return "said";
      },
    }),
    tool({ name: "hang", run: () => new Promise<string>(() => {}) }),
    tool({ name: "trace", run: (_a, ctx) => ctx.request.traceparent }),
    tool({
      name: "wait",
      run: async (args, ctx) => {
        const label = String((args as { label?: unknown }).label);
        ctx.progress(1);
        const { signal } = ctx;
        await new Promise<void>((resolve) =>
          signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve()),
        );
        stopped.set(label, String(ctx.signal.reason));
        return "stopped";
      },
    }),
  ],
});

const TOKENS = "hub-token-0123456789abcdef=ann";
const BEARER = "Bearer hub-token-0123456789abcdef";

/**
 * One upstream app reached two ways: `direct` through its method table as the hub reaches it,
 * `fetched` by a client over its fetch. Each must get the same answers.
 */
async function both(
  options: McpAppOptions = {},
  bindings: Record<string, unknown> = {},
  credentials: Record<string, string> = {},
): Promise<{ direct: DirectUpstream; fetched: McpClient; fetches: () => number }> {
  const app = mcpApp(upstream, options);
  const target = directTarget({ name: "up", app });
  expect(target).toBeDefined();
  const workerEnv = { ...env, ...bindings } as Cloudflare.Env;
  const capabilities = { elicitation: {} };
  const direct = new DirectUpstream(
    target!,
    { credentials, address: undefined, capabilities },
    workerEnv,
  );
  const { url, fetch } = transportOf({ name: "up", app }, workerEnv);
  const spy = vi.spyOn(app, "fetch");
  const fetched = await connect(url, {
    fetch: (input, init) =>
      fetch(input, { ...init, headers: withAuth(init?.headers, credentials) }),
    capabilities,
    handlers: { elicitation: () => Promise.reject(new Error("not asked: MRTR returns instead")) },
  });
  const before = spy.mock.calls.length;
  return { direct, fetched, fetches: () => spy.mock.calls.length - before };
}

function withAuth(headers: HeadersInit | undefined, credentials: Record<string, string>): Headers {
  const all = new Headers(headers);
  for (const [name, value] of Object.entries(credentials)) all.set(name, value);
  return all;
}

describe("a server of this Worker called through its method table (the hub's direct upstream)", () => {
  const cases = SAME_ANSWER_CASES;

  it("answers as its endpoint answers a client: results, an input_required round, errors, a list page", async () => {
    const { direct, fetched, fetches } = await both();
    const fast = [];
    for (const [method, params] of cases) fast.push(await outcome(direct.request(method, params)));
    expect(fetches()).toBe(0);
    const slow = [];
    for (const [method, params] of cases) slow.push(await outcome(fetched.request(method, params)));
    expect(fast).toEqual(slow);
    expect(fast[0]).toMatchObject({ structuredContent: { sum: 5 } });
    expect(fast[3]).toMatchObject({ kind: "rpc", code: -32602 });
    expect(fast[4]).toMatchObject({ resultType: "input_required" });
    expect(fast[8]).toMatchObject({ kind: "rpc", code: -32601 });
  });

  it("takes the answers to its input round back, as over HTTP", async () => {
    const { direct } = await both();
    const first = await direct.request("tools/call", { name: "ask", arguments: {} });
    const keys = Object.keys(first.inputRequests as JsonObject);
    expect(keys).toEqual(["who"]);
    const answered = await direct.request("tools/call", {
      name: "ask",
      arguments: {},
      requestState: first.requestState,
      inputResponses: { who: { action: "accept", content: { name: "Ann" } } },
    });
    expect(answered.content).toEqual([{ type: "text", text: "hi Ann" }]);
  });

  it("hides a handler's crash behind a correlation id, as over HTTP", async () => {
    const { direct } = await both();
    const failed = await direct.request("tools/call", { name: "crash", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed)).not.toContain("secret detail");
    expect(JSON.stringify(failed.content)).toMatch(/correlation id [0-9a-f]{16}/);
  });

  it("reports progress in order, as a client reads it from the stream", async () => {
    const { direct, fetched } = await both();
    const run = async (client: Pick<McpClient, "request">) => {
      const progress: unknown[] = [];
      const params = { name: "count", arguments: { to: 3 } };
      const result = await client.request("tools/call", params, {
        onProgress: (p) => progress.push(p),
      });
      return { result, progress };
    };
    const fast = await run(direct);
    expect(fast.progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
    expect(fast).toEqual(await run(fetched));
  });

  it("sends log messages at the level asked for, and none when none was asked for", async () => {
    const { direct, fetched } = await both();
    const run = async (client: Pick<McpClient, "request">, logLevel?: "info") => {
      const logs: unknown[] = [];
      await client.request(
        "tools/call",
        { name: "chatty", arguments: {} },
        { onLog: (m) => logs.push(m), ...(logLevel ? { logLevel } : {}) },
      );
      return logs;
    };
    const asked = await run(direct, "info");
    expect(asked).toEqual([{ level: "warning", logger: "storage", data: { disk: "low" } }]);
    expect(asked).toEqual(await run(fetched, "info"));
    expect(await run(direct)).toEqual([]);
  });

  it("stops the handler when the caller's signal aborts", async () => {
    const { direct } = await both();
    const controller = new AbortController();
    const call = direct.request(
      "tools/call",
      { name: "wait", arguments: { label: "direct" } },
      { signal: controller.signal, onProgress: () => queueMicrotask(() => controller.abort()) },
    );
    expect(await call).toMatchObject({ content: [{ type: "text", text: "stopped" }] });
    expect(stopped.get("direct")).toBe("Error: The client closed the request.");
  });

  it("still authenticates the credentials it is given: accepted ones name the caller", async () => {
    const { direct, fetched } = await both(
      { authenticate: bearerTokens({ variable: "UPSTREAM_TOKENS" }) },
      { UPSTREAM_TOKENS: TOKENS },
      { Authorization: BEARER },
    );
    const params = { name: "whoami", arguments: {} };
    const fast = await outcome(direct.request("tools/call", params));
    expect(fast).toMatchObject({ content: [{ type: "text", text: "ann" }] });
    expect(fast).toEqual(await outcome(fetched.request("tools/call", params)));
    // Without them, the endpoint refuses as it refuses a client (HTTP 401).
    const anonymous = new DirectUpstream(
      directTarget({
        name: "up",
        app: mcpApp(upstream, { authenticate: bearerTokens({ variable: "UPSTREAM_TOKENS" }) }),
      })!,
      { credentials: {}, address: undefined, capabilities: {} },
      { ...env, UPSTREAM_TOKENS: TOKENS } as Cloudflare.Env,
    );
    expect(await outcome(anonymous.request("tools/call", params))).toMatchObject({
      kind: "http",
      status: 401,
    });
  });

  it("still applies its access policy: a denied tool is refused as over HTTP (403)", async () => {
    const { direct, fetched } = await both(
      {
        authenticate: bearerTokens({ variable: "UPSTREAM_TOKENS" }),
        policy: accessPolicy({
          rules: [{ who: "subject:ann", names: ["secret"], effect: "deny" }],
        }),
      },
      { UPSTREAM_TOKENS: TOKENS },
      { Authorization: BEARER },
    );
    const params = { name: "secret", arguments: {} };
    const fast = await outcome(direct.request("tools/call", params));
    expect(fast).toMatchObject({ kind: "http", status: 403 });
    expect(fast).toEqual(await outcome(fetched.request("tools/call", params)));
  });

  it("refuses a method that answers with a stream, which only HTTP can carry, before opening it", async () => {
    let opened = 0;
    const listening = defineServer({
      name: "listening",
      version: "1",
      listen: listenFromSource(async () => {
        opened++;
      }),
      tools: [tool({ name: "ping", run: () => "pong" })],
    });
    const target = directTarget({ name: "listening", app: mcpApp(listening) });
    const direct = new DirectUpstream(
      target!,
      { credentials: {}, address: undefined, capabilities: {} },
      env as Cloudflare.Env,
    );
    expect(await outcome(direct.request("subscriptions/listen", { notifications: {} }))).toEqual({
      kind: "rpc",
      code: -32600,
      status: 400,
      message: "subscriptions/listen answers with a stream: send it by HTTP.",
      data: undefined,
    });
    expect(opened).toBe(0);
    // The same server's other methods still go through.
    expect(
      await outcome(direct.request("tools/call", { name: "ping", arguments: {} })),
    ).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "pong" }] });
  });

  it("is how the hub calls it: neither its fetch nor its in-process entry sees the hub's calls", async () => {
    const app = mcpApp(upstream);
    const handed = vi.fn(inProcessEntry(app)!);
    registerEntry(app, handed);
    const fetched = vi.spyOn(app, "fetch");
    const hub = serve(hubServer({ name: "hub", upstreams: [{ name: "up", app }] }));
    const { final } = await hub.send(
      mcpRequest("tools/call", { name: "up__add", arguments: { a: 2, b: 3 } }),
      "tools/call",
    );
    expect(final?.result.structuredContent).toEqual({ sum: 5 });
    expect(fetched).not.toHaveBeenCalled();
    // The hub lists the catalog with its client, through the in-process entry; it calls nothing.
    const methods = handed.mock.calls.map(([call]) => (call.message as { method: string }).method);
    expect(methods).toContain("tools/list");
    expect(methods).not.toContain("tools/call");
  });

  it("gives the hub's call up once the server has been quiet for the hub's call timeout", async () => {
    const hub = serve(
      hubServer({
        name: "hub",
        callTimeoutMs: 150,
        upstreams: [{ name: "up", app: mcpApp(upstream) }],
      }),
    );
    const { final } = await hub.send(
      mcpRequest("tools/call", { name: "up__hang", arguments: {} }),
      "tools/call",
    );
    expect(final?.result.isError).toBe(true);
    expect(final?.result.content[0].text).toMatch(/Upstream "up" is unavailable: no answer within/);
  });

  it("continues the hub's trace: the server's request is a child of the hub's", async () => {
    const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    const lines: RequestLog[] = [];
    const app = mcpApp(upstream, { log: (line) => void lines.push(line) });
    const hub = serve(hubServer({ name: "hub", upstreams: [{ name: "up", app }] }));
    const { final } = await hub.send(
      mcpRequest(
        "tools/call",
        { name: "up__trace", arguments: {} },
        { meta: { traceparent: `00-${TRACE}-00f067aa0ba902b7-01` } },
      ),
      "tools/call",
    );
    const traceparent = String(final?.result.content[0].text);
    expect(traceparent).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
    const line = lines.find((l) => l.method === "tools/call" && l.name === "trace");
    expect(line).toMatchObject({ traceId: TRACE });
    expect(traceparent).toContain(String(line?.correlationId));
  });
});
