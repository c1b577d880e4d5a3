import { afterEach, describe, expect, it } from "vitest";
import { flood } from "../../support/flood.ts";
import { ReplyError, replyMessages } from "../../../cli/stdio/reply.ts";
import { serveNode, type LoopbackServer } from "../../interop/support/http.ts";

const MiB = 1024 * 1024;

describe("the stdio bridge bounds each reply it relays", () => {
  let server: LoopbackServer;
  afterEach(() => server.close());

  async function read(type: string, head: string, tail: string) {
    let sent!: Promise<number>;
    server = await serveNode((_req, res) => void (sent = flood(res, type, head, tail)));
    const messages: unknown[] = [];
    const error = await (async () => {
      for await (const message of replyMessages(await fetch(server.origin), undefined, MiB))
        messages.push(message);
    })().catch((failure: unknown) => failure);
    return { error, messages, sent: await sent };
  }

  it("refuses a JSON reply past its bound without reading the rest", async () => {
    const { error, messages, sent } = await read(
      "application/json",
      '{"jsonrpc":"2.0","id":1,"result":{"padding":"',
      '"}}',
    );
    expect(error).toEqual(
      new ReplyError(
        "The server's JSON reply is larger than 1048576 bytes; the rest was not read.",
      ),
    );
    expect(messages).toEqual([]);
    expect(sent).toBeLessThan(64 * MiB);
  });

  it("refuses an SSE event past its bound without reading the rest", async () => {
    const { error, messages, sent } = await read(
      "text/event-stream",
      'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"padding":"',
      '"}}\n\n',
    );
    expect(error).toEqual(new ReplyError("An SSE line is longer than 1048576 bytes."));
    expect(messages).toEqual([]);
    expect(sent).toBeLessThan(64 * MiB);
  });
});
