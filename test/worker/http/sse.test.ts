import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { SseWriter } from "../../../worker/http/sse.ts";
import { defineServer, tool } from "../../../worker/mcp/index.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";

const message = (n: number) => JSON.stringify({ jsonrpc: "2.0", method: "n", params: { n } });

describe("an SSE reply to a client that stopped reading", () => {
  it("closes with an error once more than the buffer waits unread, and says so once", () => {
    let gone = 0;
    const writer = new SseWriter({ keepAliveMs: 0, maxBufferedBytes: 1000 }, () => gone++);
    let sent = 0;
    while (writer.send(message(sent))) sent++;
    // Each message is ~60 bytes: the buffer holds about 1000 bytes' worth, then the stream ends.
    expect(sent).toBeGreaterThan(10);
    expect(sent).toBeLessThan(40);
    expect(gone).toBe(1);
    expect(writer.send(message(-1))).toBe(false);
    expect(gone).toBe(1);
  });

  it("the client then reads an error, not the queue", async () => {
    const writer = new SseWriter({ keepAliveMs: 0, maxBufferedBytes: 200 }, () => {});
    while (writer.send(message(0)));
    await expect(writer.readable.getReader().read()).rejects.toThrow(/stopped reading/);
  });

  it("keeps a client that reads, however much goes through", async () => {
    let gone = 0;
    const writer = new SseWriter({ keepAliveMs: 0, maxBufferedBytes: 200 }, () => gone++);
    const reader = writer.readable.getReader();
    let received = 0;
    for (let n = 0; n < 200; n++) {
      expect(writer.send(message(n))).toBe(true);
      const { value } = await reader.read();
      received += value?.byteLength ?? 0;
    }
    writer.close();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    expect(received).toBeGreaterThan(200 * 40);
    expect(gone).toBe(0);
  });

  it("sends one message larger than the buffer whole to a client that keeps up", async () => {
    const writer = new SseWriter({ keepAliveMs: 0, maxBufferedBytes: 100 }, () => {});
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { text: "x".repeat(5000) } });
    expect(writer.send(big)).toBe(true);
    writer.close();
    const text = await new Response(writer.readable).text();
    expect(text).toContain("x".repeat(5000));
  });

  it("aborts the call whose stream nobody reads", async () => {
    let stopped: string | undefined;
    const served = serve(
      defineServer({
        name: "flood",
        version: "1",
        tools: [
          tool({
            name: "flood",
            description: "Reports progress until its signal aborts",
            input: z.object({}),
            run: async (_a, ctx) => {
              for (let n = 0; !ctx.signal.aborted && n < 100_000; n++) {
                ctx.progress(n, undefined, "x".repeat(100));
                await new Promise((resolve) => setTimeout(resolve, 0));
              }
              stopped = ctx.signal.aborted ? String(ctx.signal.reason) : "ran to the end";
              return "done";
            },
          }),
        ],
      }),
      { sseBufferBytes: 4096 },
    );
    const response = await served.fetch(
      mcpRequest("tools/call", { name: "flood" }, { server: "flood", meta: { progressToken: 1 } }),
    );
    expect(response.headers.get("Content-Type")).toBe("text/event-stream");
    // Nobody reads the body: the call learns it within a few kilobytes of progress.
    for (let i = 0; i < 200 && stopped === undefined; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toMatch(/closed the stream|stopped reading/);
  });
});
