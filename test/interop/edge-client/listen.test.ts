import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { connect, type ListenNotification } from "../../../shared/client/index.ts";
import {
  startFakeServer,
  type FakeCall,
  type FakeRoute,
  type FakeServer,
  type FakeStream,
} from "./fake-server.ts";

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/** Params with the `_meta` every message of a listen stream carries. */
function tagged(call: Pick<FakeCall, "id">, params: Record<string, unknown> = {}) {
  return { ...params, _meta: { [SUBSCRIPTION_ID]: call.id } };
}

function acknowledge(call: FakeCall, stream: FakeStream, notifications: Record<string, unknown>) {
  stream.notify("notifications/subscriptions/acknowledged", tagged(call, { notifications }));
}

const cachedList: Record<string, FakeRoute> = {
  "tools/list": (_call, reply) =>
    reply.result({
      resultType: "complete",
      tools: [{ name: "t", inputSchema: { type: "object" } }],
      ttlMs: 60_000,
      cacheScope: "public",
    }),
};

describe("edgemcp client: subscriptions/listen against a fake 2026 server", () => {
  let fake: FakeServer;
  afterEach(() => fake.close());

  it("sends the filter with the 2026 headers and resolves on the acknowledgement", async () => {
    fake = await startFakeServer({
      "subscriptions/listen": (call, reply) => {
        acknowledge(call, reply.stream(), { toolsListChanged: true });
      },
    });
    const client = await connect(fake.url);
    const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true });
    expect(subscription.honoured).toEqual({ toolsListChanged: true });
    const [listen] = fake.callsOf("subscriptions/listen");
    expect(listen?.headers.get("mcp-method")).toBe("subscriptions/listen");
    expect(listen?.headers.get("mcp-protocol-version")).toBe("2026-07-28");
    expect(listen?.params).toMatchObject({
      notifications: { toolsListChanged: true, promptsListChanged: true },
      _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" },
    });
    expect(subscription.id).toBe(listen?.id);
    await subscription.close();
  });

  it("yields the notifications that follow, and return() closes the stream", async () => {
    let closed: Promise<void> | undefined;
    fake = await startFakeServer({
      "subscriptions/listen": (call, reply) => {
        const stream = reply.stream();
        closed = stream.closed;
        acknowledge(call, stream, { toolsListChanged: true, resourceSubscriptions: ["file:///a"] });
        stream.comment("keep-alive");
        stream.notify("notifications/tools/list_changed", tagged(call));
        stream.notify("notifications/resources/updated", tagged(call, { uri: "file:///a" }));
      },
    });
    const client = await connect(fake.url);
    const subscription = await client.listen({
      toolsListChanged: true,
      resourceSubscriptions: ["file:///a"],
    });
    const seen: ListenNotification[] = [];
    for await (const notification of subscription) {
      seen.push(notification);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual([
      {
        method: "notifications/tools/list_changed",
        params: tagged(subscription),
      },
      {
        method: "notifications/resources/updated",
        params: tagged(subscription, { uri: "file:///a" }),
      },
    ]);
    await closed;
    expect(await subscription.closed).toBe("local");
  });

  it("invalidates cached lists and reads as notifications arrive", async () => {
    let stream: FakeStream | undefined;
    let listenCall: FakeCall | undefined;
    fake = await startFakeServer({
      ...cachedList,
      "resources/read": (call, reply) =>
        reply.result({
          resultType: "complete",
          contents: [{ uri: String(call.params.uri), text: "x" }],
          ttlMs: 60_000,
          cacheScope: "public",
        }),
      "subscriptions/listen": (call, reply) => {
        listenCall = call;
        stream = reply.stream();
        acknowledge(call, stream, { toolsListChanged: true, resourceSubscriptions: ["file:///a"] });
      },
    });
    const client = await connect(fake.url);
    await client.listTools();
    await client.readResource("file:///a/b");
    await client.readResource("file:///other");
    expect((await client.listTools()).source).toBe("cache");
    const subscription = await client.listen({ toolsListChanged: true });
    if (!stream || !listenCall) throw new Error("no listen stream");
    stream.notify("notifications/tools/list_changed", tagged(listenCall));
    stream.notify("notifications/resources/updated", tagged(listenCall, { uri: "file:///a" }));
    const iterator = subscription[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    expect((await client.listTools()).source).toBe("network");
    expect((await client.readResource("file:///a/b")).source).toBe("network");
    expect((await client.readResource("file:///other")).source).toBe("cache");
    await subscription.close();
  });

  it("ends gracefully when the server sends the listen result", async () => {
    fake = await startFakeServer({
      "subscriptions/listen": (call, reply) => {
        const stream = reply.stream();
        acknowledge(call, stream, { toolsListChanged: true });
        stream.notify("notifications/tools/list_changed", tagged(call));
        stream.result({ resultType: "complete", _meta: { [SUBSCRIPTION_ID]: call.id } });
        stream.end();
      },
    });
    const client = await connect(fake.url);
    const subscription = await client.listen({ toolsListChanged: true });
    const seen: string[] = [];
    for await (const notification of subscription) seen.push(notification.method);
    expect(seen).toEqual(["notifications/tools/list_changed"]);
    expect(await subscription.closed).toBe("graceful");
  });

  it("ends as remote when the server cancels the listen", async () => {
    fake = await startFakeServer({
      "subscriptions/listen": (call, reply) => {
        const stream = reply.stream();
        acknowledge(call, stream, {});
        stream.notify("notifications/cancelled", tagged(call, { requestId: call.id }));
      },
    });
    const client = await connect(fake.url);
    const subscription = await client.listen({});
    expect(await subscription.next()).toEqual({ value: undefined, done: true });
    expect(await subscription.closed).toBe("remote");
  });

  it("unlinks the caller's signal once the stream is over or failed to open", async () => {
    fake = await startFakeServer({
      // The first listen is acknowledged, the second refused.
      "subscriptions/listen": (call, reply) => {
        if (fake.callsOf("subscriptions/listen").length > 1) {
          return reply.error(-32602, "Unsupported filter", { status: 400 });
        }
        acknowledge(call, reply.stream(), {});
      },
    });
    const client = await connect(fake.url);
    const signal = new AbortController().signal;
    const subscription = await client.listen({}, { signal });
    expect(getEventListeners(signal, "abort")).toHaveLength(1);
    await subscription.close();
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
    await expect(client.listen({}, { signal })).rejects.toMatchObject({
      kind: "rpc",
      code: -32602,
      message: "Unsupported filter",
    });
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("fails when the listen is answered with plain JSON instead of a stream", async () => {
    fake = await startFakeServer({
      "subscriptions/listen": (_call, reply) => reply.result({ resultType: "complete" }),
    });
    const client = await connect(fake.url);
    await expect(client.listen({ toolsListChanged: true })).rejects.toMatchObject({
      kind: "protocol",
      code: undefined,
      method: "subscriptions/listen",
      message: "The listen stream ended before its acknowledgement.",
    });
  });

  it("fails when the first message is not the acknowledgement", async () => {
    fake = await startFakeServer({
      "subscriptions/listen": (call, reply) => {
        reply.stream().notify("notifications/tools/list_changed", tagged(call));
      },
    });
    const client = await connect(fake.url);
    await expect(client.listen({ toolsListChanged: true })).rejects.toMatchObject({
      kind: "protocol",
      method: "subscriptions/listen",
      message: "The first listen message is not its acknowledgement.",
      data: { message: { method: "notifications/tools/list_changed" } },
    });
  });

  it("fails when the acknowledgement names another subscription", async () => {
    fake = await startFakeServer({
      "subscriptions/listen": (_call, reply) => {
        reply.stream().notify("notifications/subscriptions/acknowledged", {
          notifications: {},
          _meta: { [SUBSCRIPTION_ID]: "someone-else" },
        });
      },
    });
    const client = await connect(fake.url);
    await expect(client.listen({})).rejects.toMatchObject({
      kind: "protocol",
      method: "subscriptions/listen",
      message: "The first listen message is not its acknowledgement.",
    });
  });

  it("reports a refused listen as a JSON-RPC error", async () => {
    fake = await startFakeServer({
      "subscriptions/listen": (_call, reply) =>
        reply.error(-32021, "Missing capability", {
          status: 400,
          data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
        }),
    });
    const client = await connect(fake.url);
    await expect(client.listen({ taskIds: ["t1"] })).rejects.toMatchObject({
      kind: "rpc",
      code: -32021,
      status: 400,
    });
  });
});
