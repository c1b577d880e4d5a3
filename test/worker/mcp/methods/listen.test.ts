import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MetaKey } from "../../../../shared/protocol/meta.ts";
import { durableObjects } from "../../../../worker/durable/index.ts";
import { defineServer, resource, tool, listenStreams } from "../../../../worker/mcp/index.ts";
import { eventually } from "../../../support/eventually.ts";
import { mcpRequest } from "../../../support/mcp-request.ts";
import { call } from "../../call.ts";
import { serve } from "../../custom-server.ts";
import { messages } from "../../stream.ts";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const listen = (
  notifications: Record<string, unknown>,
  id: string | number,
  options: Parameters<typeof mcpRequest>[2] = {},
) =>
  exports.default.fetch(mcpRequest("subscriptions/listen", { notifications }, { id, ...options }));
const tagOf = (message: { params?: { _meta?: Record<string, unknown> } }) =>
  message.params?._meta?.[MetaKey.subscriptionId];

describe("subscriptions/listen", () => {
  it("advertises change notifications and subscriptions in discover", async () => {
    const { final } = await call("server/discover");
    expect(final?.result.capabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
  });

  it("acknowledges first, with the honoured filter, then delivers tagged notifications", async () => {
    const response = await listen(
      { toolsListChanged: true, resourceSubscriptions: ["test://watched-resource"] },
      "listen-a",
    );
    expect(response.headers.get("Content-Type")).toBe("text/event-stream");
    const stream = messages(response, "subscriptions/listen");
    const ack = await stream.next();
    expect(ack).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: {
        notifications: {
          toolsListChanged: true,
          resourceSubscriptions: ["test://watched-resource"],
        },
      },
    });
    expect(tagOf(ack)).toBe("listen-a");
    await call("tools/call", { name: "test_trigger_tool_change", arguments: {} });
    const changed = await stream.next();
    expect(changed).toMatchObject({ method: "notifications/tools/list_changed" });
    expect(tagOf(changed)).toBe("listen-a");
    await call("tools/call", {
      name: "test_trigger_resource_update",
      arguments: { uri: "test://watched-resource/part-2" },
    });
    expect(await stream.next()).toMatchObject({
      method: "notifications/resources/updated",
      params: { uri: "test://watched-resource/part-2" },
    });
    await stream.close();
  });

  it("sends only the notification types asked for", async () => {
    const stream = messages(await listen({ promptsListChanged: true }, 7), "subscriptions/listen");
    expect((await stream.next()).params.notifications).toEqual({ promptsListChanged: true });
    await call("tools/call", { name: "test_trigger_tool_change", arguments: {} });
    await call("tools/call", { name: "test_trigger_resource_update", arguments: {} });
    await call("tools/call", { name: "test_trigger_prompt_change", arguments: {} });
    const next = await stream.next();
    expect(next.method).toBe("notifications/prompts/list_changed");
    expect(tagOf(next)).toBe(7);
    await stream.close();
  });

  it("forgets a stream once the client closes it", async () => {
    const bus = env.MCP_BUS.getByName("edgemcp-everything");
    const before = await bus.count();
    const stream = messages(
      await listen({ toolsListChanged: true }, "closing"),
      "subscriptions/listen",
    );
    await stream.next();
    expect(await bus.count()).toBe(before + 1);
    await stream.close();
    await eventually(async () => ((await bus.count()) > before ? undefined : true), {
      intervalMs: 10,
      what: "the bus forgetting the stream",
    });
    expect(await bus.count()).toBe(before);
  });

  it("ends gracefully with the listen result after the server's limit", async () => {
    const server = serve(
      defineServer({
        name: "short-listen",
        version: "1",
        listen: listenStreams,
        tools: [tool({ name: "t", description: "T", run: () => "" })],
      }),
      { listenMaxMs: 100, durable: (e) => durableObjects({ bus: e.MCP_BUS }) },
    );
    const stream = messages(
      await server.fetch(
        mcpRequest(
          "subscriptions/listen",
          { notifications: { toolsListChanged: true } },
          { id: "brief" },
        ),
      ),
      "subscriptions/listen",
    );
    await stream.next();
    expect(await stream.next()).toMatchObject({
      id: "brief",
      result: { resultType: "complete", _meta: { [MetaKey.subscriptionId]: "brief" } },
    });
    expect(await stream.ends()).toBe(true);
  });

  it("keeps a bus stream alive with comments until it ends, then forgets it", async () => {
    const server = serve(
      defineServer({
        name: "kept-alive-listen",
        version: "1",
        listen: listenStreams,
        tools: [tool({ name: "t", description: "T", run: () => "" })],
      }),
      { keepAliveMs: 20, listenMaxMs: 150, durable: (e) => durableObjects({ bus: e.MCP_BUS }) },
    );
    const response = await server.fetch(
      mcpRequest("subscriptions/listen", { notifications: { toolsListChanged: true } }, { id: 9 }),
    );
    const text = await response.text();
    expect(text.match(/^: keep-alive$/gm)?.length).toBeGreaterThanOrEqual(2);
    const events = text.trimEnd().split("\n\n");
    expect(events[0]).toContain('"notifications/subscriptions/acknowledged"');
    expect(events.at(-1)).toContain('"resultType":"complete"');
    expect(await env.MCP_BUS.getByName("kept-alive-listen").count()).toBe(0);
  });

  it("honours no types the server does not advertise", async () => {
    const server = serve(
      defineServer({
        name: "resources-only",
        version: "1",
        listen: listenStreams,
        resources: [resource({ uri: "a://b", name: "b", read: () => "" })],
      }),
      { durable: (e) => durableObjects({ bus: e.MCP_BUS }) },
    );
    const response = await server.fetch(
      mcpRequest("subscriptions/listen", {
        notifications: { toolsListChanged: true, resourcesListChanged: true },
      }),
    );
    const stream = messages(response, "subscriptions/listen");
    expect((await stream.next()).params.notifications).toEqual({ resourcesListChanged: true });
    await stream.close();
  });

  it("answers a listen without a filter with -32602", async () => {
    const reply = await call("subscriptions/listen", {});
    expect(reply.final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/params.notifications/),
    });
  });

  it("needs the tasks extension to listen to task ids (-32021)", async () => {
    const reply = await call("subscriptions/listen", { notifications: { taskIds: ["x"] } });
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32021,
      message: expect.stringContaining("Listening to taskIds needs client capabilities"),
      data: { requiredCapabilities: TASKS },
    });
  });

  it("is not offered by a server without the bus (-32601)", async () => {
    const server = serve(
      defineServer({
        name: "no-bus",
        version: "1",
        listen: listenStreams,
        tools: [tool({ name: "t", description: "T", run: () => "" })],
      }),
    );
    const reply = await server.send(
      mcpRequest("subscriptions/listen", { notifications: { toolsListChanged: true } }),
      "subscriptions/listen",
    );
    expect(reply.status).toBe(404);
    expect(reply.final?.error.code).toBe(-32601);
  });
});
