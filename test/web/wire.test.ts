import { describe, expect, it, vi } from "vitest";
import { readReply } from "../../shared/client/read-reply.ts";
import type { Exchange } from "../../web/src/lib/exchange.ts";
import { recordingFetch } from "../../web/src/state/recording-fetch.ts";
import { exchanges } from "../../web/src/state/wire.ts";

const encoder = new TextEncoder();
const event = (message: object) => encoder.encode(`data: ${JSON.stringify(message)}\n\n`);

const CALL = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "slow" } };
const PROGRESS = {
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: "p", progress: 1, total: 2 },
};
const ANSWER = { jsonrpc: "2.0", id: 7, result: { content: [] } };

/**
 * A fetch whose answer is an SSE stream sending `events` and then staying open, as a server's
 * stream may still be when the client has what it needs; `closed` settles when the stream is
 * cancelled from the reading side.
 */
function openStream(events: object[]) {
  let cancelled!: () => void;
  const closed = new Promise<void>((resolve) => (cancelled = resolve));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const message of events) controller.enqueue(event(message));
    },
    cancel: () => cancelled(),
  });
  const fetch = recordingFetch(() =>
    Promise.resolve(
      new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } }),
    ),
  );
  return { fetch, closed };
}

const post = (fetch: ReturnType<typeof recordingFetch>) =>
  fetch("http://127.0.0.1:8787/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(CALL),
  });

/** The recorded exchange of the last request, once the recorder has read all it will. */
async function lastExchange(): Promise<Exchange> {
  return vi.waitUntil(() => {
    const exchange = exchanges.value.at(-1);
    return exchange?.end !== undefined ? exchange : undefined;
  });
}

describe("the wire recorder", () => {
  it("records an SSE answer the client stopped reading once it had its response, without an error", async () => {
    const { fetch, closed } = openStream([PROGRESS, ANSWER]);
    const result = await readReply(
      await post(fetch),
      { id: 7 },
      { era: "modern", method: "tools/call" },
    );
    expect(result).toEqual(ANSWER.result);
    await closed; // the client closed the stream, which had not ended
    const exchange = await lastExchange();
    expect(exchange.rpcId).toBe(7);
    expect(exchange.frames.map((f) => f.message)).toEqual([PROGRESS, ANSWER]);
    expect(exchange.answered).toBe(true);
    expect(exchange.error).toBeUndefined();
  });

  it("says the client closed a stream it left before the response", async () => {
    const { fetch, closed } = openStream([PROGRESS]);
    const response = await post(fetch);
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel(); // how a call is cancelled in 2026-07-28
    await closed;
    const exchange = await lastExchange();
    expect(exchange.frames.map((f) => f.message)).toEqual([PROGRESS]);
    expect(exchange.answered).toBeUndefined();
    expect(exchange.error).toBe("closed by the client");
  });

  it("shows a 2025 priming event as what it is, not as a violation", async () => {
    const text = `id: p1\nretry: 1000\ndata: \n\nid: m1\ndata: ${JSON.stringify(ANSWER)}\n\n`;
    const fetch = recordingFetch(() =>
      Promise.resolve(
        new Response(text, { status: 200, headers: { "Content-Type": "text/event-stream" } }),
      ),
    );
    const result = await readReply(
      await post(fetch),
      { id: 7 },
      { era: "legacy", method: "tools/call" },
    );
    expect(result).toEqual(ANSWER.result);
    const exchange = await lastExchange();
    expect(exchange.frames.map((f) => [f.eventId, f.note, f.findings])).toEqual([
      [
        "p1",
        "A priming event: no message, only the id p1 to resume the stream from if it drops.",
        [],
      ],
      ["m1", undefined, []],
    ]);
    expect(exchange.answered).toBe(true);
  });

  it("checks a GET that resumes a dropped stream as the reply to the request it resumes", async () => {
    const streams = [`id: p2\ndata: \n\n`, `id: m2\ndata: ${JSON.stringify(ANSWER)}\n\n`];
    const fetch = recordingFetch(() =>
      Promise.resolve(
        new Response(streams.shift(), {
          status: 200,
          headers: { "Content-Type": "text/event-stream" },
        }),
      ),
    );
    await (await post(fetch)).text();
    const dropped = await lastExchange();
    const resumed = await fetch("http://127.0.0.1:8787/mcp", {
      method: "GET",
      headers: { Accept: "text/event-stream", "Last-Event-ID": "p2" },
    });
    await resumed.text();
    const exchange = await lastExchange();
    expect(exchange.resumes).toBe(dropped.id);
    expect([exchange.rpcMethod, exchange.rpcId]).toEqual(["tools/call", 7]);
    expect(exchange.frames.map((f) => f.findings)).toEqual([[]]);
    expect(exchange.answered).toBe(true);
  });
});
