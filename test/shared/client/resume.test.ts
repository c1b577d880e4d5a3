import { describe, expect, it } from "vitest";
import { connect } from "../../../shared/client/index.ts";
import { Connection } from "../../../shared/client/connection.ts";
import { modern } from "../../../shared/client/era/modern.ts";
import { exchange } from "../../../shared/client/exchange.ts";

type Sent = { method: string; headers: Headers; body: Record<string, unknown> | undefined };

const sse = (text: string) =>
  new Response(text, { status: 200, headers: { "Content-Type": "text/event-stream" } });
const message = (id: string, json: object) => `id: ${id}\ndata: ${JSON.stringify(json)}\n\n`;

const INITIALIZED = {
  protocolVersion: "2025-11-25",
  capabilities: { tools: {} },
  serverInfo: { name: "scripted", version: "1.0.0" },
};

/**
 * A 2025-11-25 server as a fetch: every reply stream opens with a priming event, and a
 * `tools/call` reply is cut after its first progress step; `resume` answers the GET that comes
 * back with Last-Event-ID. It offers no session stream: the GET a 2025 client opens after
 * initialize (without Last-Event-ID) gets 405.
 */
function droppingServer(resume: (lastEventId: string, call: number) => Response) {
  const sent: Sent[] = [];
  const fetch = async (_url: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    const body =
      typeof init.body === "string"
        ? (JSON.parse(init.body) as Record<string, unknown>)
        : undefined;
    sent.push({ method: init.method ?? "GET", headers, body });
    if (init.method === "GET" && !headers.has("Last-Event-ID")) {
      return new Response(null, { status: 405 });
    }
    if (init.method === "GET") return resume(headers.get("Last-Event-ID") ?? "", sent.length);
    const id = body?.id;
    if (body?.method === "initialize") {
      const reply = sse(
        `id: i0\nretry: 0\ndata: \n\n${message("i1", { jsonrpc: "2.0", id, result: INITIALIZED })}`,
      );
      reply.headers.set("Mcp-Session-Id", "s1");
      return reply;
    }
    if (id === undefined) return new Response(null, { status: 202 });
    const progress = {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: id, progress: 1, total: 2 },
    };
    return sse(`id: c0\nretry: 0\ndata: \n\n${message("c1", progress)}`);
  };
  return { sent, fetch };
}

const RESULT = { content: [{ type: "text", text: "done" }] };

describe("the client resumes a 2025 reply the server drops", () => {
  it("comes back with GET and Last-Event-ID on the session, and reads the response there", async () => {
    const server = droppingServer(() => {
      const progress = {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: 2, progress: 2, total: 2 },
      };
      return sse(
        message("c2", progress) + message("c3", { jsonrpc: "2.0", id: 2, result: RESULT }),
      );
    });
    const client = await connect("http://127.0.0.1:1/mcp", {
      fetch: server.fetch,
      handshake: "initialize",
    });
    const steps: number[] = [];
    const result = await client.callTool("slow", {}, { onProgress: (p) => steps.push(p.progress) });
    expect(result.result).toMatchObject(RESULT);
    expect(steps).toEqual([1, 2]);
    const get = server.sent.find((s) => s.method === "GET" && s.headers.has("Last-Event-ID"));
    expect(get?.headers.get("Last-Event-ID")).toBe("c1");
    expect(get?.headers.get("Mcp-Session-Id")).toBe("s1");
    expect(get?.headers.get("MCP-Protocol-Version")).toBe("2025-11-25");
    expect(get?.headers.get("Accept")).toBe("text/event-stream");
  });

  it("fails with the server's refusal when the resuming GET is refused", async () => {
    const server = droppingServer(() => new Response("gone", { status: 404 }));
    const client = await connect("http://127.0.0.1:1/mcp", {
      fetch: server.fetch,
      handshake: "initialize",
    });
    await expect(client.callTool("slow", {})).rejects.toMatchObject({
      name: "McpError",
      kind: "protocol",
      status: 404,
      message:
        'The tools/call stream ended before its response. The server\'s stream ended and it refused to resume it after event "c1" (GET with Last-Event-ID: HTTP 404, text/plain;charset=UTF-8).',
    });
  });

  it("gives up after the bounded attempts when resumed streams bring nothing", async () => {
    const server = droppingServer(() => sse(""));
    const client = await connect("http://127.0.0.1:1/mcp", {
      fetch: server.fetch,
      handshake: "initialize",
    });
    await expect(client.callTool("slow", {})).rejects.toThrow(
      /^The tools\/call stream ended before its response\. The server's stream ended and 5 attempts to resume it after event "c1" brought no message/,
    );
    const resumes = server.sent.filter((s) => s.method === "GET" && s.headers.has("Last-Event-ID"));
    expect(resumes).toHaveLength(5);
  });
});

describe("the client never resumes a 2026-07-28 reply", () => {
  it("fails a reply that ends before its response, ids or not, without a GET", async () => {
    const server = droppingServer(() => sse(""));
    const conn = new Connection({
      url: "http://127.0.0.1:1/mcp",
      fetch: server.fetch,
      send: undefined,
      headers: {},
      clientInfo: { name: "t", version: "1" },
      capabilities: {},
      handlers: {},
      onWire: undefined,
    });
    await expect(
      exchange(conn, modern, { method: "tools/call", params: { name: "slow", arguments: {} } }),
    ).rejects.toThrow("The tools/call stream ended before its response.");
    expect(server.sent.map((s) => s.method)).toEqual(["POST"]);
  });
});
