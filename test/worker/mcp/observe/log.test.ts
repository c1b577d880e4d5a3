import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import {
  defineServer,
  tool,
  type HandlerContext,
  type RequestLog,
} from "../../../../worker/mcp/index.ts";
import { legacyRequest, mcpRequest } from "../../../support/mcp-request.ts";
import { serve } from "../../custom-server.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";

let seen: HandlerContext["request"] | undefined;
const server = defineServer({
  name: "logged",
  version: "1",
  tools: [
    tool({
      name: "add",
      input: z.object({ a: z.number(), b: z.number() }),
      run: ({ a, b }, ctx) => {
        seen = ctx.request;
        return String(a + b);
      },
    }),
    tool({
      name: "boom",
      run: () => {
        throw new Error("the token is sk-live-123");
      },
    }),
  ],
});

const post = (method: string, params: Record<string, unknown>, meta?: Record<string, unknown>) =>
  mcpRequest(method, params, { server: "logged", ...(meta ? { meta } : {}) });

describe("the request log", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("gives a hook one entry per request: method, name, subject, era, status, duration, ids", async () => {
    const logs: RequestLog[] = [];
    const served = serve(server, {
      log: (entry) => logs.push(entry),
      authenticate: () => Promise.resolve({ subject: "ann" }),
    });
    await served.send(post("tools/call", { name: "add", arguments: { a: 1, b: 2 } }), "tools/call");
    await served.send(post("tools/call", { name: "add", arguments: { a: "x" } }), "tools/call");
    await served.send(post("tools/call", { name: "nope" }), "tools/call");
    await served.send(
      legacyRequest("tools/call", { name: "add", arguments: { a: 1, b: 1 } }, { server: "logged" }),
      "tools/call",
      "2025",
    );
    expect(logs).toHaveLength(4);
    const [ok, invalid, unknown, legacy] = logs;
    expect(ok).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      level: "info",
      server: "logged",
      method: "tools/call",
      name: "add",
      subject: "ann",
      era: "modern",
      status: "ok",
      httpStatus: 200,
      durationMs: expect.any(Number),
      correlationId: expect.stringMatching(/^[0-9a-f]{16}$/),
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(invalid).toMatchObject({ level: "info", status: "tool_error", name: "add" });
    expect(unknown).toMatchObject({
      level: "warn",
      status: "error",
      code: -32602,
      name: "nope",
      error: expect.stringContaining('Unknown tool "nope"'),
    });
    expect(legacy).toMatchObject({ era: "legacy", status: "ok", method: "tools/call" });
    expect(new Set(logs.map((l) => l.correlationId)).size).toBe(4);
  });

  it("continues the caller's traceparent from _meta or the header, and hands handlers the next one", async () => {
    const logs: RequestLog[] = [];
    const served = serve(server, { log: (entry) => logs.push(entry) });
    const traceparent = `00-${TRACE}-${PARENT}-01`;
    await served.send(
      post("tools/call", { name: "add", arguments: { a: 1, b: 2 } }, { traceparent }),
      "tools/call",
    );
    expect(logs[0]).toMatchObject({ traceId: TRACE, parentId: PARENT });
    expect(seen?.correlationId).toBe(logs[0]?.correlationId);
    expect(seen?.traceparent).toBe(`00-${TRACE}-${logs[0]?.correlationId}-01`);

    const request = post("tools/call", { name: "add", arguments: { a: 1, b: 2 } });
    request.headers.set("traceparent", traceparent);
    await served.send(request, "tools/call");
    expect(logs[1]).toMatchObject({ traceId: TRACE, parentId: PARENT });
  });

  it("never trusts a malformed traceparent: a new trace, the value not logged", async () => {
    const logs: RequestLog[] = [];
    const served = serve(server, { log: (entry) => logs.push(entry) });
    const bad = `00-${TRACE}-${PARENT}-01-injected`;
    await served.send(
      post("tools/call", { name: "add", arguments: { a: 1, b: 2 } }, { traceparent: bad }),
      "tools/call",
    );
    expect(logs[0]?.traceId).not.toBe(TRACE);
    expect(logs[0]).not.toHaveProperty("parentId");
    expect(JSON.stringify(logs)).not.toContain("injected");
  });

  it("prints one JSON line per request with log: 'requests', failures on console.error", async () => {
    const out = vi.spyOn(console, "log").mockImplementation(() => {});
    const err = vi.spyOn(console, "error").mockImplementation(() => {});
    const served = serve(server, { log: "requests" });
    await served.send(post("tools/call", { name: "add", arguments: { a: 1, b: 2 } }), "tools/call");
    await served.send(post("tools/call", { name: "boom" }), "tools/call");
    expect(out).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(out.mock.calls[0]?.[0]))).toMatchObject({ name: "add", status: "ok" });
    expect(err).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(err.mock.calls[0]?.[0]))).toMatchObject({
      level: "error",
      name: "boom",
      status: "tool_error",
      error: expect.stringContaining("sk-live-123"),
    });
  });

  it("by default prints only the requests the server failed; EDGEMCP_LOG=off prints nothing", async () => {
    const out = vi.spyOn(console, "log").mockImplementation(() => {});
    const err = vi.spyOn(console, "error").mockImplementation(() => {});
    const served = serve(server);
    await served.send(post("tools/call", { name: "add", arguments: { a: 1, b: 2 } }), "tools/call");
    await served.send(post("tools/call", { name: "boom" }), "tools/call");
    // A refusal (-32602 here) is the client's mistake, not the server's failure: not printed.
    const refused = await served.send(post("tools/call", { name: "nope" }), "tools/call");
    expect(refused.final?.error.code).toBe(-32602);
    expect(out).not.toHaveBeenCalled();
    expect(err).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(err.mock.calls[0]?.[0]))).toMatchObject({ name: "boom" });

    err.mockClear();
    // A variable a library user sets in wrangler.toml or .dev.vars (the demo Worker sets none).
    const variables: Record<string, string> = { EDGEMCP_LOG: "off" };
    const quiet = serve(server, {}, variables);
    await quiet.send(post("tools/call", { name: "boom" }), "tools/call");
    expect(err).not.toHaveBeenCalled();
    expect(out).not.toHaveBeenCalled();
  });
});
