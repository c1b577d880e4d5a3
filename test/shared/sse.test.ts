import { describe, expect, it } from "vitest";
import {
  carriesMessage,
  decodeSse,
  encodeSseComment,
  encodeSseMessage,
  MAX_SSE_EVENT_BYTES,
  SseError,
  type SseCursor,
} from "../../shared/sse.ts";

function streamOf(...chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks)
        controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

async function decode(...chunks: (string | Uint8Array)[]) {
  const cursor: SseCursor = {};
  const events = [];
  for await (const event of decodeSse(streamOf(...chunks), cursor)) events.push(event);
  return { events, cursor };
}

async function events(...chunks: (string | Uint8Array)[]) {
  return (await decode(...chunks)).events;
}

describe("SSE decoding", () => {
  it("reads events split across chunks at any point, CRLF included", async () => {
    expect(await events("event: mess", "age\r", '\ndata: {"a"', ":1}\r\n\r\n")).toEqual([
      { event: "message", data: '{"a":1}' },
    ]);
  });

  it("ends lines at CR alone, LF alone and CRLF, mixed in one stream", async () => {
    expect(await events("data: a\r\rdata: b\n\ndata: c\r\n\r\n")).toEqual([
      { event: "message", data: "a" },
      { event: "message", data: "b" },
      { event: "message", data: "c" },
    ]);
  });

  it("takes a CR at the end of a chunk followed by a blank line as two line ends", async () => {
    expect(await events("data: a\r", "\rdata: b\r\n\r\n")).toEqual([
      { event: "message", data: "a" },
      { event: "message", data: "b" },
    ]);
  });

  it("joins multi-line data, skips comments and defaults the event name", async () => {
    expect(await events(": keep-alive\n\ndata: a\ndata: b\n\n")).toEqual([
      { event: "message", data: "a\nb" },
    ]);
  });

  it("keeps a data line's own leading spaces after the one optional space", async () => {
    expect(await events("data:  two\ndata:none\n\n")).toEqual([
      { event: "message", data: " two\nnone" },
    ]);
  });

  it("reads a field name without a colon as that field with an empty value", async () => {
    expect(await events("data\ndata\n\n")).toEqual([{ event: "message", data: "\n" }]);
    expect(await events("id: 3\nid\ndata: x\n\n")).toEqual([{ event: "message", data: "x" }]);
  });

  it("ignores unknown fields and a field named with a leading space", async () => {
    expect(await events("foo: bar\n data: no\ndata: yes\n\n")).toEqual([
      { event: "message", data: "yes" },
    ]);
  });

  it("names the event from its event field, for that event only", async () => {
    expect(await events("event: ping\ndata: 1\n\ndata: 2\n\n")).toEqual([
      { event: "ping", data: "1" },
      { event: "message", data: "2" },
    ]);
  });

  it("drops one leading byte order mark", async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    expect(await events(bom, "data: x\n\n")).toEqual([{ event: "message", data: "x" }]);
  });

  it("decodes a UTF-8 character split between chunks", async () => {
    const bytes = new TextEncoder().encode("data: é\n\n");
    expect(await events(bytes.slice(0, 7), bytes.slice(7))).toEqual([
      { event: "message", data: "é" },
    ]);
  });

  it("keeps ids and drops an unterminated last event", async () => {
    expect(await events("id: 7\ndata: x\n\ndata: partial")).toEqual([
      { event: "message", data: "x", id: "7" },
    ]);
  });

  it("dispatches the priming event (an id and an empty data line) with empty data", async () => {
    const { events: read, cursor } = await decode('id: p1\ndata: \n\nid: m1\ndata: {"a":1}\n\n');
    expect(read).toEqual([
      { event: "message", data: "", id: "p1" },
      { event: "message", data: '{"a":1}', id: "m1" },
    ]);
    expect(read.map(carriesMessage)).toEqual([false, true]);
    expect(cursor).toEqual({ lastEventId: "m1" });
  });

  it("does not dispatch an id-only event but resumes from its id", async () => {
    const { events: read, cursor } = await decode("id: only\n\n");
    expect(read).toEqual([]);
    expect(cursor.lastEventId).toBe("only");
  });

  it("carries the last id on to later events that have none", async () => {
    expect(await events("id: 1\n\ndata: a\n\n")).toEqual([
      { event: "message", data: "a", id: "1" },
    ]);
  });

  it("does not let the id of an event cut off by the stream's end count", async () => {
    const { cursor } = await decode("id: 1\ndata: a\n\nid: 2\ndata: b");
    expect(cursor.lastEventId).toBe("1");
  });

  it("ignores an id containing NUL", async () => {
    const { events: read, cursor } = await decode("id: 1\n\nid: a\0b\ndata: x\n\n");
    expect(read).toEqual([{ event: "message", data: "x", id: "1" }]);
    expect(cursor.lastEventId).toBe("1");
  });

  it("clears the last id on an empty id field", async () => {
    const { events: read, cursor } = await decode("id: 1\ndata: a\n\nid:\ndata: b\n\n");
    expect(read).toEqual([
      { event: "message", data: "a", id: "1" },
      { event: "message", data: "b" },
    ]);
    expect(cursor.lastEventId).toBeUndefined();
  });

  it("takes retry from a retry-only event, digits only", async () => {
    expect((await decode("retry: 2500\n\n")).cursor).toEqual({ retryMs: 2500 });
    expect((await decode("retry: 2500\n\nretry: 1.5\n\nretry: x\n\n")).cursor.retryMs).toBe(2500);
    const { events: read, cursor } = await decode("id: p\nretry: 2000\ndata: \n\n");
    expect(read).toEqual([{ event: "message", data: "", id: "p" }]);
    expect(cursor).toEqual({ lastEventId: "p", retryMs: 2000 });
  });

  it("dispatches nothing for a stream of comments and blank lines", async () => {
    expect(await events(": hi\n\n\n\n:\n\n")).toEqual([]);
  });

  it("refuses an event larger than its bound instead of holding it", async () => {
    const read = async (limit: number, ...chunks: string[]) => {
      for await (const _event of decodeSse(streamOf(...chunks), {}, limit));
    };
    await expect(read(10, "data: 123\n", "data: 456\n", "data: 789\n\n")).rejects.toThrow(
      new SseError("An SSE event is larger than 10 bytes.", 10),
    );
    await expect(read(10, "data: 1234", "56789")).rejects.toThrow(/line is longer than 10/);
    await expect(read(30, "data: 123\n\n", "data: 456\n\n", "data: 789\n\n")).resolves.toBe(
      undefined,
    );
  });

  it("counts an event's bound in UTF-8 bytes, not characters", async () => {
    const read = async (limit: number, ...chunks: string[]) => {
      for await (const _event of decodeSse(streamOf(...chunks), {}, limit));
    };
    // "data: " is 6 bytes, é 2, € 3 and 😀 4 (two UTF-16 units).
    await expect(read(13, "data: é€😀\n\n")).rejects.toThrow(/larger than 13 bytes/);
    await expect(read(15, "data: é€😀\n\n")).resolves.toBe(undefined);
    await expect(read(14, "data: é€😀", "é")).rejects.toThrow(/line is longer than 14 bytes/);
  });

  it("bounds events at 32 MiB by default and reads a long one in chunks quickly", async () => {
    expect(MAX_SSE_EVENT_BYTES).toBe(32 * 1024 * 1024);
    const chunk = "x".repeat(64 * 1024);
    const started = Date.now();
    const read = await events("data: ", ...Array.from({ length: 256 }, () => chunk), "\n\n");
    expect(read[0]?.data.length).toBe(256 * chunk.length);
    // Scanning the held line again for each chunk would take minutes here.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("round-trips what the encoder writes", async () => {
    const decoder = new TextDecoder();
    const text =
      decoder.decode(encodeSseComment("hi")) + decoder.decode(encodeSseMessage('{"x":1}'));
    expect(await events(text)).toEqual([{ event: "message", data: '{"x":1}' }]);
  });
});
