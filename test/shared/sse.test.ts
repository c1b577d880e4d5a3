import { describe, expect, it } from "vitest";
import { decodeSse, encodeSseComment, encodeSseMessage } from "../../shared/sse.ts";
function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function events(...chunks: string[]) {
  const out = [];
  for await (const event of decodeSse(streamOf(...chunks))) out.push(event);
  return out;
}

describe("SSE decoding", () => {
  it("reads events split across chunks at any point, CRLF included", async () => {
    expect(await events("event: mess", "age\r", '\ndata: {"a"', ":1}\r\n\r\n")).toEqual([
      { event: "message", data: '{"a":1}' },
    ]);
  });

  it("joins multi-line data, skips comments and defaults the event name", async () => {
    expect(await events(": keep-alive\n\ndata: a\ndata: b\n\n")).toEqual([
      { event: "message", data: "a\nb" },
    ]);
  });

  it("keeps ids and drops an unterminated last event", async () => {
    expect(await events("id: 7\ndata: x\n\ndata: partial")).toEqual([
      { event: "message", data: "x", id: "7" },
    ]);
  });

  it("round-trips what the encoder writes", async () => {
    const decoder = new TextDecoder();
    const text =
      decoder.decode(encodeSseComment("hi")) + decoder.decode(encodeSseMessage('{"x":1}'));
    expect(await events(text)).toEqual([{ event: "message", data: '{"x":1}' }]);
  });
});
