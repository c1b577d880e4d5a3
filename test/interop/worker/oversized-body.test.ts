import { describe, expect, inject, it } from "vitest";

const MiB = 1024 * 1024;

/** A 2025 POST of `bytes` bytes to the everything endpoint (1 MiB limit), over real TCP. */
function post(body: BodyInit, headers: Record<string, string> = {}) {
  return fetch(new URL("/mcp/everything", inject("workerUrl")), {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2025-11-25",
      ...headers,
    },
    body,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

function padded(bytes: number): string {
  const head =
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"pad":"';
  const tail = '"}}}';
  return head + "x".repeat(bytes - head.length - tail.length) + tail;
}

// Over `wrangler dev`: a client still sending when the 413 comes must still be able to read it
// (the connection closing under it reads as a failed fetch in Node, a 502 behind a proxy).
describe("an oversized body over TCP", () => {
  it("of declared length (5 MiB to a 1 MiB endpoint) gets a readable 413 with its reason", async () => {
    for (let i = 0; i < 3; i++) {
      const response = await post(padded(5 * MiB));
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32600,
          message: "The request body exceeds the 1048576-byte limit. Send a smaller request.",
        },
      });
    }
  });

  it("sent in chunks, without a declared length, gets a readable 413 too", async () => {
    const chunk = new TextEncoder().encode("x".repeat(256 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 5 * MiB) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const response = await post(body);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /exceeds the 1048576-byte limit/,
    );
  });

  it("still serves the next request on the same Worker", async () => {
    const response = await post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "after", version: "1" },
        },
      }),
    );
    expect(response.status).toBe(200);
  });
});
