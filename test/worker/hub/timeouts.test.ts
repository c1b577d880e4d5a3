import { describe, expect, it } from "vitest";
import { durableObjects } from "../../../worker/durable/index.ts";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import { defineServer, tool } from "../../../worker/mcp/index.ts";
import { decodeSse } from "../../../shared/sse.ts";
import { MetaKey } from "../../../shared/protocol/meta.ts";
import { legacyRequest, mcpRequest } from "../../support/mcp-request.ts";
import { type Message } from "../../support/reply.ts";
import { serve } from "../custom-server.ts";
import { alpha, inProcess } from "./support.ts";
describe("the hub's idle timeout", () => {
  it("rests while the hub's own 2025 client takes its time to answer", async () => {
    const patient = serve(
      hubServer({
        name: "patient-hub",
        callTimeoutMs: 150,
        upstreams: () => [inProcess("alpha", alpha)],
      }),
      { durable: (env) => durableObjects({ rendezvous: env.MCP_RENDEZVOUS }) },
    );
    const response = await patient.fetch(
      legacyRequest("tools/call", { name: "alpha__ask", arguments: {} }, { id: "slow-answer" }),
    );
    let final: Message | undefined;
    for await (const event of decodeSse(response.body ?? new ReadableStream())) {
      const message: Message = JSON.parse(event.data);
      if (message.method === "elicitation/create") {
        // Longer than the upstream may stay silent: the wait is the client's, not the upstream's.
        await new Promise((resolve) => setTimeout(resolve, 400));
        await patient.fetch(
          new Request("http://localhost/mcp/hub", {
            method: "POST",
            headers: {
              "Content-Type": "application/json",
              Accept: "application/json, text/event-stream",
              "MCP-Protocol-Version": "2025-11-25",
            },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: message.id,
              result: { action: "accept", content: { name: "Ann" } },
            }),
          }),
        );
      } else if (message.id === "slow-answer") final = message;
    }
    expect(final?.result?.content[0].text).toBe("hi Ann");
  });

  it("counts the upstream's log messages as signs of life", async () => {
    const chatty = defineServer({
      name: "chatty",
      version: "1",
      tools: [
        tool({
          name: "work",
          description: "Logs every 50 ms for 400 ms, without progress",
          run: async (_a, ctx) => {
            for (let i = 0; i < 8; i++) {
              ctx.log("info", `step ${i}`);
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
            return "done";
          },
        }),
      ],
    });
    const logged = serve(
      hubServer({
        name: "chatty-hub",
        callTimeoutMs: 150,
        upstreams: () => [inProcess("c", chatty)],
      }),
    );
    const { final, messages } = await logged.send(
      mcpRequest(
        "tools/call",
        { name: "c__work", arguments: {} },
        { meta: { [MetaKey.logLevel]: "info" } },
      ),
      "tools/call",
    );
    expect(final?.result?.content[0].text).toBe("done");
    expect(messages.filter((m) => m.method === "notifications/message")).toHaveLength(8);
  });
});
