import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { MetaKey } from "../../../../shared/protocol/meta.ts";
import { decodeSse } from "../../../../shared/sse.ts";
import { defineServer, tool } from "../../../../worker/mcp/index.ts";
import { eventually } from "../../../support/eventually.ts";
import { mcpRequest } from "../../../support/mcp-request.ts";
import { call } from "../../call.ts";
import { serve } from "../../custom-server.ts";

describe("progress", () => {
  it("streams progress notifications before the response when a progress token is sent", async () => {
    const reply = await call(
      "tools/call",
      { name: "test_tool_with_progress", arguments: {} },
      { meta: { progressToken: "p-1" } },
    );
    expect(reply.contentType).toBe("text/event-stream");
    expect(reply.headers.get("X-Accel-Buffering")).toBe("no");
    const progress = reply.messages
      .filter((m) => m.method === "notifications/progress")
      .map((m) => m.params);
    expect(progress).toEqual([
      { progressToken: "p-1", progress: 0, total: 100, message: "Completed step 0 of 100" },
      { progressToken: "p-1", progress: 50, total: 100, message: "Completed step 50 of 100" },
      { progressToken: "p-1", progress: 100, total: 100, message: "Completed step 100 of 100" },
    ]);
    expect(reply.messages.at(-1)).toBe(reply.final);
    expect(reply.final?.result.content[0].text).toBe("p-1");
  });

  it("treats a numeric progress token of 0 as present", async () => {
    const reply = await call(
      "tools/call",
      { name: "test_tool_with_progress", arguments: {} },
      { meta: { progressToken: 0 } },
    );
    expect(reply.messages.filter((m) => m.method === "notifications/progress")).toHaveLength(3);
  });

  it("answers plain JSON when no progress token is sent", async () => {
    const reply = await call("tools/call", { name: "test_tool_with_progress", arguments: {} });
    expect(reply.contentType).toBe("application/json");
    expect(reply.messages).toHaveLength(1);
  });

  it("drops notifications for a client that accepts only JSON, and still answers", async () => {
    const reply = await call(
      "tools/call",
      { name: "test_tool_with_progress", arguments: {} },
      { meta: { progressToken: 1 }, headers: { Accept: "application/json" } },
    );
    expect(reply.contentType).toBe("application/json");
    expect(reply.final?.result.content[0].text).toBe("1");
  });

  it("answers in SSE a client that accepts only SSE, even without notifications", async () => {
    const reply = await call(
      "tools/call",
      { name: "test_simple_text" },
      { headers: { Accept: "text/event-stream" } },
    );
    expect(reply.contentType).toBe("text/event-stream");
    expect(reply.messages).toHaveLength(1);
  });

  it("sends only increasing progress values", async () => {
    const server = serve(
      defineServer({
        name: "p",
        version: "1",
        tools: [
          tool({
            name: "wobbly",
            description: "Reports progress out of order",
            run: (_a, ctx) => {
              for (const p of [1, 3, 2, 3, 4]) ctx.progress(p);
              return "done";
            },
          }),
        ],
      }),
    );
    const reply = await server.send(
      mcpRequest("tools/call", { name: "wobbly" }, { meta: { progressToken: "w" } }),
      "tools/call",
    );
    expect(reply.messages.filter((m) => m.method).map((m) => m.params.progress)).toEqual([1, 3, 4]);
  });
});

describe("log messages", () => {
  it("are not sent when the request set no log level", async () => {
    const reply = await call("tools/call", { name: "test_tool_with_logging", arguments: {} });
    expect(reply.messages.filter((m) => m.method === "notifications/message")).toEqual([]);
  });

  it("are streamed at or above the requested level", async () => {
    const reply = await call(
      "tools/call",
      { name: "test_tool_with_logging", arguments: {} },
      { meta: { [MetaKey.logLevel]: "info" } },
    );
    expect(
      reply.messages.filter((m) => m.method === "notifications/message").map((m) => m.params),
    ).toEqual([
      { level: "info", data: "Tool execution started" },
      { level: "info", data: "Tool processing data" },
      { level: "info", data: "Tool execution completed" },
    ]);
  });

  it("are filtered out below the requested level", async () => {
    const reply = await call(
      "tools/call",
      { name: "test_tool_with_logging", arguments: {} },
      { meta: { [MetaKey.logLevel]: "error" } },
    );
    expect(reply.contentType).toBe("application/json");
  });
});

describe("cancellation", () => {
  it("aborts the handler when the client closes the stream", async () => {
    const label = `close-${crypto.randomUUID()}`;
    const response = await exports.default.fetch(
      mcpRequest(
        "tools/call",
        { name: "test_slow_counter", arguments: { steps: 50, delayMs: 20, label } },
        { meta: { progressToken: "c" } },
      ),
    );
    const events = decodeSse(response.body!);
    const first = await events.next();
    expect(JSON.parse(first.value!.data).method).toBe("notifications/progress");
    await events.return(undefined);
    const status = await eventually(
      async () => {
        const { final } = await call("tools/call", {
          name: "test_abort_status",
          arguments: { label },
        });
        const text: string = final?.result.content[0].text;
        return text.startsWith("aborted") ? text : undefined;
      },
      { intervalMs: 20, what: `an abort of ${label}` },
    );
    expect(status).toMatch(new RegExp(`^aborted: ${label} at step \\d+ \\(t=\\d+\\)$`));
  });

  it("sends keep-alive comments while a streamed call runs", async () => {
    const server = serve(
      defineServer({
        name: "k",
        version: "1",
        tools: [
          tool({
            name: "slow",
            description: "Reports progress, then waits",
            input: z.object({}),
            run: async (_a, ctx) => {
              ctx.progress(1);
              await new Promise((r) => setTimeout(r, 120));
              return "done";
            },
          }),
        ],
      }),
      { keepAliveMs: 25 },
    );
    const response = await server.fetch(
      mcpRequest("tools/call", { name: "slow" }, { meta: { progressToken: 1 } }),
    );
    const text = await response.text();
    expect(text).toMatch(/^event: message\ndata: .*\n\n/);
    expect(text.match(/^: keep-alive$/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(text.trimEnd().split("\n\n").at(-1)).toMatch(/"result"/);
  });
});
