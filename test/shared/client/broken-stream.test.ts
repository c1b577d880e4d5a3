import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpError } from "../../../shared/client/errors.ts";
import { readReply } from "../../../shared/client/read-reply.ts";

const context = { era: "modern" as const, method: "tools/call" };
const PROGRESS = {
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: 1, progress: 1, total: 3 },
};

// A server whose process dies mid-answer: one whole event, half of the next, then the
// connection is cut (no chunked terminator), as a killed Worker process behind a proxy does.
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/event-stream" });
    response.write(`event: message\ndata: ${JSON.stringify(PROGRESS)}\n\n`);
    response.write(`event: message\ndata: {"jsonrpc":"2.0","id":1,"res`, () =>
      setTimeout(() => response.destroy(), 20),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("a reply stream that breaks off", () => {
  it("fails with a network McpError naming the method, after handing on only whole messages", async () => {
    const progress: unknown[] = [];
    const failed = await readReply(
      await fetch(url),
      { id: 1, progressToken: 1, onProgress: (p) => progress.push(p) },
      context,
    ).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(McpError);
    expect(failed).toMatchObject({ kind: "network", method: "tools/call", era: "modern" });
    expect((failed as McpError).message).toMatch(/^The tools\/call stream broke off: /);
    expect(progress).toEqual([{ progress: 1, total: 3 }]);
  });
});
