import { afterEach, describe, expect, it } from "vitest";
import { flood } from "../../support/flood.ts";
import { connect, McpError } from "../../../shared/client/index.ts";
import {
  startFakeServer as startServer,
  type FakeRoute,
  type FakeServer,
} from "../../interop/edge-client/fake-server.ts";

const MiB = 1024 * 1024;

/** A fake server that lists the tools the tests call (the client looks a tool up first). */
function startFakeServer(routes: Record<string, FakeRoute>): Promise<FakeServer> {
  const tools = ["x", "json", "sse"].map((name) => ({ name, inputSchema: { type: "object" } }));
  return startServer({
    "tools/list": (_call, reply) =>
      reply.result({ resultType: "complete", tools, ttlMs: 0, cacheScope: "public" }),
    ...routes,
  });
}

/** A tool result whose one text is the padding between `head` and `tail`, as JSON or an event. */
function paddedResult(id: unknown): { head: string; tail: string } {
  const start = JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text" }] } });
  return { head: start.replace('"text"}', '"text","text":"'), tail: '"}]}}' };
}

function textResult(id: unknown, text: string): unknown {
  return { jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } };
}

describe("the client bounds each reply it reads (maxReplyBytes)", () => {
  let fake: FakeServer;
  let sent: Promise<number>;
  afterEach(() => fake.close());

  async function floodingServer(sse: boolean): Promise<void> {
    fake = await startFakeServer({
      "tools/call": (call, reply) => {
        const { head, tail } = paddedResult(call.id);
        sent = sse
          ? flood(reply.res, "text/event-stream", `event: message\ndata: ${head}`, `${tail}\n\n`)
          : flood(reply.res, "application/json", head, tail);
      },
    });
  }

  it("stops reading a JSON reply past the bound, cancels the rest and names the option", async () => {
    await floodingServer(false);
    const client = await connect(fake.url, { backgroundStream: false, maxReplyBytes: MiB });
    const error = await client.callTool("x").catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      kind: "client",
      method: "tools/call",
      status: 200,
      data: { maxReplyBytes: MiB },
      message:
        "The tools/call reply is larger than 1048576 bytes (1 MiB), so the rest was not read; the client option maxReplyBytes raises this limit.",
    });
    // The connection was closed long before the server's cap: kernel buffers hold a few MiB.
    expect(await sent).toBeLessThan(64 * MiB);
  });

  it("bounds a JSON reply at 16 MiB by default", async () => {
    await floodingServer(false);
    const client = await connect(fake.url, { backgroundStream: false });
    await expect(client.callTool("x")).rejects.toMatchObject({
      kind: "client",
      data: { maxReplyBytes: 16 * MiB },
      message: expect.stringContaining(
        "larger than 16777216 bytes (16 MiB), so the rest was not read",
      ),
    });
    expect(await sent).toBeLessThan(64 * MiB);
  });

  it("stops reading an SSE event past the bound, cancels the stream and names the option", async () => {
    await floodingServer(true);
    const client = await connect(fake.url, { backgroundStream: false, maxReplyBytes: MiB });
    await expect(client.callTool("x")).rejects.toMatchObject({
      kind: "client",
      method: "tools/call",
      data: { maxReplyBytes: MiB },
      message:
        "The tools/call reply's SSE event is larger than 1048576 bytes (1 MiB), so the rest was not read; the client option maxReplyBytes raises this limit.",
    });
    expect(await sent).toBeLessThan(64 * MiB);
  });

  it("stops reading a listen stream's event past the bound", async () => {
    fake = await startFakeServer({
      "subscriptions/listen": (_call, reply) => {
        sent = flood(
          reply.res,
          "text/event-stream",
          'event: message\ndata: {"padding":"',
          '"}\n\n',
        );
      },
    });
    const client = await connect(fake.url, { backgroundStream: false, maxReplyBytes: MiB });
    await expect(client.listen({ toolsListChanged: true })).rejects.toMatchObject({
      kind: "client",
      method: "subscriptions/listen",
      message: expect.stringContaining("SSE event is larger than 1048576 bytes (1 MiB)"),
    });
    expect(await sent).toBeLessThan(64 * MiB);
  });

  it("refuses a JSON reply whose Content-Length is past the bound", async () => {
    const body = JSON.stringify(textResult(2, "x".repeat(2 * MiB)));
    fake = await startFakeServer({
      "tools/call": (_call, reply) => {
        reply.res.writeHead(200, {
          "Content-Type": "application/json",
          "Content-Length": String(Buffer.byteLength(body)),
        });
        reply.res.end(body);
      },
    });
    const client = await connect(fake.url, { backgroundStream: false, maxReplyBytes: MiB });
    await expect(client.callTool("x")).rejects.toMatchObject({
      kind: "client",
      message: expect.stringContaining("larger than 1048576 bytes"),
    });
  });

  it("reads a 1 MiB result whole by default, as JSON and as SSE", async () => {
    const text = "é".repeat(MiB / 2) + "x".repeat(MiB);
    fake = await startFakeServer({
      "tools/call": (call, reply) => {
        if (call.params.name === "json") return reply.json(textResult(call.id, text));
        const stream = reply.stream();
        stream.send(textResult(call.id, text));
        stream.end();
      },
    });
    const client = await connect(fake.url, { backgroundStream: false });
    for (const name of ["json", "sse"]) {
      const { result } = await client.callTool(name);
      const [block] = result.content;
      // Compared as a boolean: a failure would print megabytes.
      expect(block?.type === "text" && block.text === text).toBe(true);
      expect(result.content).toHaveLength(1);
    }
  });

  it("bounds each event of a stream, not the stream: many events under the bound pass", async () => {
    const padding = "p".repeat(200 * 1024);
    fake = await startFakeServer({
      "tools/call": (call, reply) => {
        const stream = reply.stream();
        for (let i = 1; i <= 8; i += 1) {
          stream.notify("notifications/progress", {
            progressToken: call.id,
            progress: i,
            message: padding,
          });
        }
        stream.send(textResult(call.id, "done"));
        stream.end();
      },
    });
    const client = await connect(fake.url, { backgroundStream: false, maxReplyBytes: 256 * 1024 });
    const progress: number[] = [];
    const { result } = await client.callTool(
      "x",
      {},
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("refuses a maxReplyBytes that is not a positive whole number of bytes", async () => {
    fake = await startFakeServer({});
    for (const maxReplyBytes of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(connect(fake.url, { maxReplyBytes })).rejects.toMatchObject({
        kind: "client",
        message: `maxReplyBytes must be a positive whole number of bytes, not ${maxReplyBytes}.`,
      });
    }
    expect(fake.calls).toEqual([]);
  });
});
