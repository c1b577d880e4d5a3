import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { defineServer, tool } from "../../../../worker/mcp/index.ts";
import { mcpRequest } from "../../../support/mcp-request.ts";
import { serve } from "../../custom-server.ts";

// `ctx.signal` is made when a handler first reads it (most never do): these check that it still
// aborts when the client goes away, whenever the handler reads it.

/** A tool call whose request aborts when `client` does, as workerd's does when the client leaves. */
function callWith(client: AbortController, name: string): Request {
  const request = mcpRequest("tools/call", { name }, { server: "signals" });
  return new Request(request, { signal: client.signal });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Serves one tool without arguments, `name`, on the "signals" server. */
const servedWith = (
  name: string,
  description: string,
  run: (args: object, ctx: { readonly signal: AbortSignal }) => Promise<string>,
) =>
  serve(
    defineServer({
      name: "signals",
      version: "1",
      tools: [tool({ name, description, input: z.object({}), run })],
    }),
  );

describe("a call's signal", () => {
  it("aborts when the client goes away after the handler read it", async () => {
    let heard: string | undefined;
    let reading!: () => void;
    const read = new Promise<void>((resolve) => (reading = resolve));
    const served = servedWith("wait", "Waits for its signal", async (_args, ctx) => {
      const { signal } = ctx;
      reading();
      await new Promise((resolve) => signal.addEventListener("abort", resolve));
      heard = String(signal.reason);
      return "stopped";
    });
    const client = new AbortController();
    const answer = served.fetch(callWith(client, "wait"));
    await read;
    expect(heard).toBeUndefined();
    client.abort();
    await answer.catch(() => undefined);
    expect(heard).toBe("Error: The client closed the request.");
  });

  it("is aborted already when the handler first reads it after the client left", async () => {
    let seen: { aborted: boolean; reason: string } | undefined;
    let waiting!: () => void;
    const waited = new Promise<void>((resolve) => (waiting = resolve));
    let go!: () => void;
    const goOn = new Promise<void>((resolve) => (go = resolve));
    const served = servedWith(
      "late",
      "Reads its signal only after being told to",
      async (_args, ctx) => {
        waiting();
        await goOn;
        seen = { aborted: ctx.signal.aborted, reason: String(ctx.signal.reason) };
        return "looked";
      },
    );
    const client = new AbortController();
    const answer = served.fetch(callWith(client, "late"));
    await waited;
    client.abort();
    await settle();
    go();
    await answer.catch(() => undefined);
    expect(seen).toEqual({ aborted: true, reason: "Error: The client closed the request." });
  });

  it("stays quiet for a client that stays, and the call answers", async () => {
    let aborted: boolean | undefined;
    const served = servedWith("look", "Reads its signal and answers", async (_args, ctx) => {
      aborted = ctx.signal.aborted;
      await settle();
      return "fine";
    });
    const reply = await served.send(callWith(new AbortController(), "look"), "tools/call");
    expect(aborted).toBe(false);
    expect(reply.final?.result).toMatchObject({ content: [{ type: "text", text: "fine" }] });
  });
});
