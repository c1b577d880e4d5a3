import { describe, expect, it } from "vitest";
import { BackgroundStream } from "../../../shared/client/background/background.ts";
import type { BackgroundState, ServerNotification } from "../../../shared/client/index.ts";
import { Connection } from "../../../shared/client/connection.ts";
import type { ServerRequest } from "../../../shared/client/read-reply.ts";

type Get = { headers: Headers };
type Posted = { body: { id?: unknown; error?: { code: number } } };

const sse = (text: string, status = 200) =>
  new Response(text, { status, headers: { "Content-Type": "text/event-stream" } });
const log = (data: string) =>
  `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data } })}\n\n`;

/**
 * A background stream over a scripted server: each GET gets the next reply of `replies` (the
 * last repeats); POSTs (answers) are recorded and acknowledged with 202.
 */
function scripted(
  replies: (() => Response)[],
  answer?: (request: ServerRequest) => Promise<void>,
  maxReplyBytes?: number,
) {
  const gets: Get[] = [];
  const posted: Posted[] = [];
  const notifications: ServerNotification[] = [];
  const states: BackgroundState[] = [];
  const conn = new Connection({
    url: "http://127.0.0.1:9/mcp",
    fetch: async (_url, init) => {
      if (init.method === "POST") {
        posted.push({ body: JSON.parse(String(init.body)) });
        return new Response(null, { status: 202 });
      }
      gets.push({ headers: new Headers(init.headers) });
      return (replies[gets.length - 1] ?? replies.at(-1)!)();
    },
    send: undefined,
    headers: {},
    clientInfo: { name: "test", version: "1" },
    capabilities: {},
    handlers: {},
    onWire: undefined,
    ...(maxReplyBytes === undefined ? {} : { maxReplyBytes }),
  });
  conn.sessionId = "session-1";
  conn.protocolVersion = "2025-11-25";
  const stream = new BackgroundStream(conn, async (_conn, request) => answer?.(request), {
    onNotification: (n) => notifications.push(n),
    onState: (state) => states.push(state),
  });
  return { stream, gets, posted, notifications, states };
}

/** A stream's states when it opened, was cut, opened again, was cut, and its GET got 405. */
const OPENED_TWICE_THEN_UNSUPPORTED = [
  "open",
  "reconnecting",
  "open",
  "reconnecting",
  "unsupported",
];

describe("the 2025 background stream", () => {
  it("takes a 405 as no stream, and a 404 as a refusal: one GET each, no retry", async () => {
    for (const [status, expected] of [
      [405, "unsupported"],
      [404, "failed"],
    ] as const) {
      const run = scripted([() => new Response("no", { status })]);
      await run.stream.done;
      expect(run.gets.length).toBe(1);
      expect(run.states.map((s) => s.status)).toEqual([expected]);
    }
  });

  it("sends the session's headers, then reopens after the server's retry with Last-Event-ID", async () => {
    const run = scripted([
      () => sse(`id: e1\nretry: 250\n${log("first")}`),
      () => sse(`id: e2\n${log("second")}`),
      () => new Response(null, { status: 405 }),
    ]);
    await run.stream.done;
    expect(run.notifications.map((n) => n.params?.data)).toEqual(["first", "second"]);
    expect(run.gets[0]?.headers.get("Mcp-Session-Id")).toBe("session-1");
    expect(run.gets[0]?.headers.get("MCP-Protocol-Version")).toBe("2025-11-25");
    expect(run.gets[0]?.headers.get("Accept")).toBe("text/event-stream");
    expect(run.gets[0]?.headers.has("Last-Event-ID")).toBe(false);
    expect(run.gets[1]?.headers.get("Last-Event-ID")).toBe("e1");
    expect(run.gets[2]?.headers.get("Last-Event-ID")).toBe("e2");
    expect(run.states.map((s) => s.status)).toEqual(OPENED_TWICE_THEN_UNSUPPORTED);
  });

  it("stops reading an event past maxReplyBytes and reconnects, saying why", async () => {
    const run = scripted(
      [
        () => sse(`retry: 250\n${log("x".repeat(2000))}`),
        () => sse(log("small")),
        () => new Response(null, { status: 405 }),
      ],
      undefined,
      1024,
    );
    await run.stream.done;
    expect(run.notifications.map((n) => n.params?.data)).toEqual(["small"]);
    expect(run.states.map((s) => s.status)).toEqual(OPENED_TWICE_THEN_UNSUPPORTED);
    expect(run.states[1]?.detail).toBe(
      "An SSE event is larger than 1024 bytes. The rest was not read; the client option maxReplyBytes raises this limit.",
    );
  });

  it("gives up after 5 reconnections in a row that bring no message", async () => {
    const run = scripted([() => sse(`id: only\nretry: 250\ndata:\n\n`)]);
    await run.stream.done;
    expect(run.gets.length).toBe(6);
    expect(run.states.at(-1)).toEqual({
      status: "failed",
      detail: "Gave up after 5 reconnections in a row brought no message.",
    });
  }, 20_000);

  it("answers requests while reading on, and refuses at once past 16 pending", async () => {
    const requests = Array.from(
      { length: 17 },
      (_, i) =>
        `data: ${JSON.stringify({ jsonrpc: "2.0", id: `r${i}`, method: "roots/list" })}\n\n`,
    ).join("");
    const asked: string[] = [];
    const run = scripted(
      [() => sse(requests + log("after")), () => new Response(null, { status: 405 })],
      // A person who never answers: every request stays pending.
      (request) => {
        asked.push(String(request.id));
        return new Promise(() => {});
      },
    );
    await run.stream.done;
    expect(asked.length).toBe(16);
    expect(run.notifications.map((n) => n.params?.data)).toEqual(["after"]);
    expect(run.posted).toEqual([
      {
        body: {
          jsonrpc: "2.0",
          id: "r16",
          error: {
            code: -32603,
            message: "The client is busy with other requests from this server.",
          },
        },
      },
    ]);
  });

  it("closes for good on close(): no reconnection follows", async () => {
    const run = scripted([() => sse(log("hello"))]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await run.stream.close();
    const gets = run.gets.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(run.gets.length).toBe(gets);
    expect(run.stream.state.status).toBe("closed");
  });
});
