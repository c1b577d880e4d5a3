import { describe, expect, it } from "vitest";
import { durableObjects } from "../../../worker/durable/index.ts";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import { defineServer, resource, tool, listenStreams } from "../../../worker/mcp/index.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { type Message } from "../../support/reply.ts";
import { serve } from "../custom-server.ts";
import { messages } from "../stream.ts";
import { alphaUnless, inProcess } from "./support.ts";
describe("listen through the hub", () => {
  it("relays an upstream's notifications on the hub's stream", async () => {
    const notifying = defineServer({
      name: "notifier",
      version: "1",
      listen: listenStreams,
      tools: [
        tool({
          name: "touch",
          description: "Announces an update",
          run: async (_a, ctx) => (await ctx.notify.resourceUpdated("n://doc"), "ok"),
        }),
      ],
      resources: [resource({ uri: "n://doc", name: "doc", read: () => "doc" })],
    });
    const hubbed = serve(
      hubServer({
        name: "listen-hub",
        upstreams: (env) => [
          inProcess("n", notifying, { durable: () => durableObjects({ bus: env.MCP_BUS }) }),
        ],
      }),
    );
    const stream = messages(
      await hubbed.fetch(
        mcpRequest(
          "subscriptions/listen",
          { notifications: { resourceSubscriptions: ["n://doc"] } },
          { id: "hub-l" },
        ),
      ),
      "subscriptions/listen",
    );
    const ack: Message = await stream.next();
    expect(ack.params.notifications).toEqual({ resourceSubscriptions: ["n://doc"] });
    await new Promise((r) => setTimeout(r, 100));
    await hubbed.send(mcpRequest("tools/call", { name: "n__touch", arguments: {} }), "tools/call");
    expect(await stream.next()).toMatchObject({
      method: "notifications/resources/updated",
      params: { uri: "n://doc", _meta: { "io.modelcontextprotocol/subscriptionId": "hub-l" } },
    });
    await stream.close();
  });

  it("asks an upstream for task ids only if it advertises tasks", async () => {
    let upstreamListens = 0;
    const hubbed = serve(
      hubServer({
        name: "listen-tasks-hub",
        upstreams: (env) => [
          alphaUnless(env, "plain", (sent) => {
            if (sent.method === "subscriptions/listen") upstreamListens++;
            return undefined;
          }),
        ],
      }),
    );
    const stream = messages(
      await hubbed.fetch(
        mcpRequest(
          "subscriptions/listen",
          { notifications: { taskIds: ["plain__x"] } },
          {
            id: "hub-t",
            capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
          },
        ),
      ),
      "subscriptions/listen",
    );
    expect((await stream.next()).params.notifications).toEqual({ taskIds: ["plain__x"] });
    await new Promise((r) => setTimeout(r, 100));
    await stream.close();
    expect(upstreamListens).toBe(0);
  });
});
