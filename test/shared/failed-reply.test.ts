import { describe, expect, it } from "vitest";
import { httpFailure } from "../../shared/client/errors.ts";
import {
  failedReplyLine,
  MAX_FAILED_REPLY_BYTES,
  readFailedReply,
} from "../../shared/failed-reply.ts";

const rpcBody = (error: object) => JSON.stringify({ jsonrpc: "2.0", id: 1, error });

/** A body that never ends, and whether its reader gave up on it. */
function endless(chunk: string) {
  const bytes = new TextEncoder().encode(chunk);
  const seen = { cancelled: false, sent: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      seen.sent += bytes.byteLength;
      controller.enqueue(bytes);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { body, seen };
}

describe("reading a failed HTTP reply", () => {
  it("gives the JSON-RPC error the body carries, with the status", async () => {
    const error = { code: -32602, message: "Unknown tool", data: { name: "x" } };
    const reply = await readFailedReply(new Response(rpcBody(error), { status: 400 }));
    expect(reply).toMatchObject({ status: 400, error });
  });

  it("gives no error for a body that is text, not JSON-RPC, or a result", async () => {
    for (const body of [
      "Bad gateway",
      '{"error":"nope"}',
      '{"jsonrpc":"2.0","id":1,"result":{}}',
    ]) {
      const reply = await readFailedReply(new Response(body, { status: 502 }));
      expect(reply, body).toEqual({ status: 502, text: body, error: undefined });
    }
  });

  it("says the status and the start of the body in one line, or the status alone", async () => {
    const long = await readFailedReply(new Response(`  ${"x".repeat(300)}\n`, { status: 502 }));
    expect(failedReplyLine(long)).toBe(`HTTP 502: ${"x".repeat(200)}`);
    const empty = await readFailedReply(new Response(null, { status: 503 }));
    expect(failedReplyLine(empty)).toBe("HTTP 503");
  });

  it("reads at most its limit of an endless body, then cancels the rest", async () => {
    const { body, seen } = endless("é".repeat(1000));
    const reply = await readFailedReply(new Response(body, { status: 500 }));
    expect(new TextEncoder().encode(reply.text).byteLength).toBe(MAX_FAILED_REPLY_BYTES);
    expect(reply.text).toBe("é".repeat(MAX_FAILED_REPLY_BYTES / 2));
    expect(seen.cancelled).toBe(true);
    expect(reply.error).toBeUndefined();
  });

  it("keeps what arrived of a body that breaks off", async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(new TextEncoder().encode("Service unav"));
        else controller.error(new Error("reset"));
      },
    });
    const reply = await readFailedReply(new Response(body, { status: 503 }));
    expect(failedReplyLine(reply)).toBe("HTTP 503: Service unav");
  });
});

describe("the client's error for a failed reply", () => {
  const context = { method: "tools/call", era: "modern" } as const;

  it("is the server's JSON-RPC error with the status, except for a 401 or 403", async () => {
    const body = rpcBody({ code: -32001, message: "Sign in first" });
    const rpc = await httpFailure(new Response(body, { status: 400 }), context);
    expect(rpc).toMatchObject({ kind: "rpc", code: -32001, status: 400, message: "Sign in first" });
    const refused = await httpFailure(new Response(body, { status: 401 }), context);
    expect(refused).toMatchObject({ kind: "http", code: -32001, status: 401 });
  });

  it("is an HTTP error holding the body's start when the body is no JSON-RPC error", async () => {
    const failure = await httpFailure(new Response("x".repeat(5000), { status: 502 }), context);
    expect(failure.message).toBe("HTTP 502 from the server for tools/call.");
    expect(failure).toMatchObject({ kind: "http", status: 502, data: { body: "x".repeat(1000) } });
  });

  it("comes back from a server whose error body never ends", async () => {
    const { body, seen } = endless("x".repeat(4096));
    const failure = await httpFailure(new Response(body, { status: 500 }), context);
    expect(failure).toMatchObject({ kind: "http", status: 500 });
    expect(seen.sent).toBeLessThan(MAX_FAILED_REPLY_BYTES * 4);
  });
});
