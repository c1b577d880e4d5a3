import { describe, expect, it } from "vitest";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";
import { alpha, alphaUnless, inProcess } from "./support.ts";

type Fault = "reset" | "html" | "not-json-rpc" | "truncated" | "comments-forever" | "trickle";
let fault: Fault = "reset";

const encoder = new TextEncoder();

/** An SSE body that sends `chunk` every 30 ms until the reader goes away. */
function forever(first: string, chunk: string): Response {
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(first));
      timer = setInterval(() => controller.enqueue(encoder.encode(chunk)), 30);
    },
    cancel: () => clearInterval(timer),
  });
  return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
}

/** What the faulty upstream answers a tools/call with. */
function faulty(): Response {
  switch (fault) {
    case "reset":
      throw new TypeError("Network connection lost.");
    case "html":
      return new Response("<html><body>Bad gateway</body></html>", {
        headers: { "Content-Type": "text/html" },
      });
    case "not-json-rpc":
      return Response.json({ hello: "world" });
    case "truncated":
      return new Response('event: message\ndata: {"jsonrpc":"2.0","id":', {
        headers: { "Content-Type": "text/event-stream" },
      });
    case "comments-forever":
      return forever(": keep-alive\n\n", ": keep-alive\n\n");
    case "trickle":
      return forever('event: message\ndata: {"jsonrpc":"2.0",', " ");
  }
}

const hub = serve(
  hubServer({
    name: "faults-hub",
    callTimeoutMs: 300,
    upstreams: (env) => [
      alphaUnless(env, "faulty", (sent) => (sent.method === "tools/call" ? faulty() : undefined)),
      inProcess("alpha", alpha),
    ],
  }),
);

const callTool = (name: string) =>
  hub.send(
    mcpRequest("tools/call", { name, arguments: { a: 1, b: 2 } }, { server: "faults-hub" }),
    "tools/call",
  );

describe("a hub upstream that fails", () => {
  it.each<[Fault, RegExp]>([
    ["reset", /^Upstream "faulty" is unavailable: /],
    ["html", /^Upstream "faulty" is unavailable: /],
    ["not-json-rpc", /^Upstream "faulty" is unavailable: /],
    ["truncated", /^Upstream "faulty" is unavailable: /],
    ["comments-forever", /^Upstream "faulty" is unavailable: no answer within/],
    ["trickle", /^Upstream "faulty" is unavailable: no answer within/],
  ])(
    "%s: the call ends with a tool error naming the upstream, and the others still answer",
    async (kind, message) => {
      fault = kind;
      const started = Date.now();
      const failed = await callTool("faulty__add");
      expect(failed.status).toBe(200);
      expect(failed.final?.result).toMatchObject({ isError: true });
      const text: string = failed.final?.result.content[0].text;
      expect(text).toMatch(message);
      // Named, never described: no URL, no upstream body, no stack.
      expect(text).not.toMatch(/in-process|html|hello|\bat /);
      expect(Date.now() - started).toBeLessThan(5_000);

      const fine = await callTool("alpha__add");
      expect(fine.final?.result.structuredContent).toEqual({ sum: 3 });
      // The faulty upstream still lists and answers what does not fail.
      const tools = await hub.send(
        mcpRequest("tools/list", {}, { server: "faults-hub" }),
        "tools/list",
      );
      expect(tools.final?.result.tools.map((t: { name: string }) => t.name)).toContain(
        "faulty__add",
      );
    },
  );
});
