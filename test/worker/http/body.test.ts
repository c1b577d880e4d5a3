import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import {
  BodyTooLarge,
  BodyTooSlow,
  readLimited,
  readRequestBody,
} from "../../../worker/http/body.ts";
import { defineServer, tool } from "../../../worker/mcp/index.ts";
import { modernBody } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";

const encoder = new TextEncoder();

/** A body that sends `first`, then one byte every `everyMs`, for ever (until cancelled). */
function trickle(first: string, everyMs: number, cancelled: { at?: number } = {}) {
  let timer: ReturnType<typeof setInterval> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(first));
      timer = setInterval(() => controller.enqueue(encoder.encode(" ")), everyMs);
    },
    cancel() {
      clearInterval(timer);
      cancelled.at = Date.now();
    },
  });
}

function post(body: BodyInit, headers: Record<string, string> = {}) {
  return new Request("http://localhost/mcp/t", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/list",
      ...headers,
    },
    body,
  });
}

const server = defineServer({
  name: "t",
  version: "1",
  tools: [tool({ name: "noop", description: "Nothing", input: z.object({}), run: () => "ok" })],
});

describe("reading the request body", () => {
  it("cuts off a body that trickles in past the deadline, and stops reading it", async () => {
    const cancelled: { at?: number } = {};
    const started = Date.now();
    const request = post(trickle("{", 10, cancelled));
    await expect(readLimited(request, { maxBytes: 1024, deadlineMs: 100 })).rejects.toThrow(
      BodyTooSlow,
    );
    expect(cancelled.at).toBeGreaterThanOrEqual(started);
  });

  it("still refuses a trickling body that grows past the size limit first", async () => {
    const request = post(trickle("x".repeat(2000), 1));
    await expect(readLimited(request, { maxBytes: 1024, deadlineMs: 5000 })).rejects.toThrow(
      BodyTooLarge,
    );
  });

  it("reads a body in many chunks that arrives within the deadline", async () => {
    const parts = ['{"a":', "1", "}"];
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const part = parts.shift();
        if (part === undefined) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 5));
        controller.enqueue(encoder.encode(part));
      },
    });
    const bytes = await readLimited(post(body), { maxBytes: 1024, deadlineMs: 1000 });
    expect(new TextDecoder().decode(bytes)).toBe('{"a":1}');
  });

  it("answers a trickling POST with 408 and a JSON-RPC error saying what to change", async () => {
    const served = serve(server, { bodyDeadlineMs: 100 });
    const response = await served.fetch(post(trickle('{"jsonrpc":"2.0",', 20)));
    expect(response.status).toBe(408);
    const body = await response.json<{ error: { code: number; message: string } }>();
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toMatch(/did not arrive within 0\.1 s/);
  });

  it("answers a declared length whose bytes never all come with 408", async () => {
    const served = serve(server, { bodyDeadlineMs: 100 });
    const { readable, writable } = new FixedLengthStream(64);
    const writer = writable.getWriter();
    void writer.write(encoder.encode("{")).catch(() => {});
    const response = await served.fetch(post(readable));
    expect(response.status).toBe(408);
    void writer.abort().catch(() => {});
  });

  it("serves a body that arrives in time with the deadline on", async () => {
    const served = serve(server, { bodyDeadlineMs: 1000 });
    const response = await served.fetch(post(JSON.stringify(modernBody("tools/list"))));
    expect(response.status).toBe(200);
  });

  it("reads a body of declared length whole, and refuses a declared length over the limit, keeping none of it", async () => {
    // As the request comes over HTTP: with its length declared.
    const text = JSON.stringify(modernBody("tools/list"));
    const sized = post(text, { "Content-Length": String(encoder.encode(text).byteLength) });
    expect(sized.headers.get("Content-Length")).not.toBeNull();
    const bytes = await readRequestBody(sized, { maxBytes: 1024, deadlineMs: 1000 });
    expect(new TextDecoder().decode(bytes)).toBe(text);

    const cancelled: { at?: number } = {};
    const { readable, writable } = new FixedLengthStream(4096);
    const writer = writable.getWriter();
    void writer.write(encoder.encode("{")).catch(() => {});
    const large = post(readable, { "Content-Length": "4096" });
    await expect(readRequestBody(large, { maxBytes: 1024, deadlineMs: 1000 })).rejects.toThrow(
      BodyTooLarge,
    );
    void writer.abort().catch(() => {});
    // Without a declared length the body is read as a stream, with the same limit; an endless
    // one is drained (for its client to read the 413) only until the deadline, then cancelled.
    await expect(
      readRequestBody(post(trickle("x".repeat(2000), 1, cancelled)), {
        maxBytes: 1024,
        deadlineMs: 300,
      }),
    ).rejects.toThrow(BodyTooLarge);
    expect(cancelled.at).toBeDefined();
  });

  it("reads a request that declares a length but has no body as no bytes", async () => {
    const empty = new Request("https://example.com/mcp", {
      method: "POST",
      headers: { "Content-Length": "0" },
    });
    expect(empty.body).toBeNull();
    const bytes = await readRequestBody(empty, { maxBytes: 1024, deadlineMs: 1000 });
    expect(bytes.byteLength).toBe(0);
  });

  it("checks the size again after reading a body whose declared length understated it", async () => {
    // Only a request built in this isolate can carry a length its body does not have.
    const lying = post("x".repeat(2000), { "Content-Length": "10" });
    await expect(readRequestBody(lying, { maxBytes: 1024, deadlineMs: 1000 })).rejects.toThrow(
      BodyTooLarge,
    );
  });

  it("reads a body sent with Transfer-Encoding as a stream, with the same limit", async () => {
    const cancelled: { at?: number } = {};
    const chunked = post(trickle("x".repeat(2000), 1, cancelled), {
      "Content-Length": "10",
      "Transfer-Encoding": "chunked",
    });
    await expect(readRequestBody(chunked, { maxBytes: 1024, deadlineMs: 300 })).rejects.toThrow(
      BodyTooLarge,
    );
    // Refused while streaming: the endless rest is drained until the deadline, then cancelled.
    expect(cancelled.at).toBeDefined();
  });

  it("cuts off a body of declared length whose bytes stop coming, at the deadline", async () => {
    const { readable, writable } = new FixedLengthStream(64);
    const writer = writable.getWriter();
    void writer.write(encoder.encode("{")).catch(() => {});
    const started = Date.now();
    await expect(
      readRequestBody(post(readable), { maxBytes: 1024, deadlineMs: 100 }),
    ).rejects.toThrow(BodyTooSlow);
    expect(Date.now() - started).toBeLessThan(2000);
    void writer.abort().catch(() => {});
  });
});
