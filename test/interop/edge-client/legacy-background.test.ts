import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connect,
  type BackgroundState,
  type McpClient,
  type ServerNotification,
} from "../../../shared/client/index.ts";
import { everythingUrl, textOf } from "../support/clients.ts";
import { eventually } from "../../support/eventually.ts";
import { startLegacySessionServer, MEMO_URI } from "./legacy-session-server.ts";
import { ANSWERING } from "./support.ts";

/** Waits (up to 10 s) until `ok` holds. */
const until = (ok: () => boolean, what: string) =>
  eventually(async () => (ok() ? true : undefined), { what, timeoutMs: 10_000 });

const logsOf = (notifications: ServerNotification[]) =>
  notifications
    .filter((n) => n.method === "notifications/message")
    .map((n) => String(n.params?.data));

describe("edgemcp client and a 2025 session's background stream (@modelcontextprotocol/sdk 1.32.2)", () => {
  let server: Awaited<ReturnType<typeof startLegacySessionServer>>;
  let client: McpClient;
  const notifications: ServerNotification[] = [];
  const states: BackgroundState["status"][] = [];
  beforeAll(async () => {
    server = await startLegacySessionServer();
    client = await connect(server.url, {
      handshake: "initialize",
      handlers: ANSWERING,
      onNotification: (notification) => notifications.push(notification),
      onBackgroundState: (state) => states.push(state.status),
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("opens the GET stream right after initialize, with the session's headers", () => {
    expect(server.requests.slice(0, 3)).toEqual([
      "POST initialize",
      "POST notifications/initialized",
      "GET",
    ]);
    expect(server.streamHeaders[0]).toMatchObject({
      accept: "text/event-stream",
      "mcp-session-id": client.sessionId,
      "mcp-protocol-version": "2025-11-25",
    });
    expect(client.backgroundState).toEqual({ status: "open" });
  });

  it("answers the roots/list request the server sends on it, outside any call's stream", async () => {
    const { result } = await client.callTool("ask-roots", {});
    expect(textOf(result)).toBe("file:///project");
  });

  it("delivers log messages sent outside a call to onNotification", async () => {
    await client.callTool("log-later", { text: "from afar" });
    await until(() => logsOf(notifications).includes("from afar"), "the log message");
  });

  it("subscribes to a resource, delivers its updates, and stops after unsubscribing", async () => {
    await client.subscribeResource(MEMO_URI);
    expect(server.subscribed).toEqual([MEMO_URI]);
    await client.callTool("touch", {});
    await until(
      () => notifications.some((n) => n.method === "notifications/resources/updated"),
      "the resource update",
    );
    expect(notifications).toContainEqual({
      method: "notifications/resources/updated",
      params: { uri: MEMO_URI },
    });
    await client.unsubscribeResource(MEMO_URI);
    expect(server.subscribed).toEqual([]);
  });

  it("reconnects when the server drops the stream, and goes on delivering", async () => {
    const gets = server.requests.filter((r) => r === "GET").length;
    await client.callTool("drop-stream", {});
    await until(() => server.requests.filter((r) => r === "GET").length === gets + 1, "a GET");
    expect(states).toContain("reconnecting");
    await until(() => client.backgroundState?.status === "open", "the stream open again");
    await client.callTool("log-later", { text: "after the drop" });
    await until(() => logsOf(notifications).includes("after the drop"), "the later message");
  });

  it("closes the stream and ends the session with DELETE on close; no GET follows", async () => {
    await client.close();
    expect(client.backgroundState?.status).toBe("closed");
    expect(server.requests.at(-1)).toBe("DELETE");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.requests.at(-1)).toBe("DELETE");
  });
});

describe("edgemcp client and servers without a background stream", () => {
  it("takes a 405 to the GET as no stream (this Worker's 2025 mode) and still calls tools", async () => {
    const states: string[] = [];
    const client = await connect(everythingUrl(), {
      handshake: "initialize",
      onBackgroundState: (state) => states.push(state.status),
    });
    expect(client.era).toBe("legacy");
    expect(client.backgroundState?.status).toBe("unsupported");
    expect(states).toEqual(["unsupported"]);
    const { result } = await client.callTool("add_numbers", { a: 1, b: 2 });
    expect(result.structuredContent).toEqual({ sum: 3 });
    await client.close();
  });

  it("opens no stream when told not to", async () => {
    const server = await startLegacySessionServer();
    try {
      const client = await connect(server.url, {
        handshake: "initialize",
        backgroundStream: false,
      });
      expect(client.backgroundState).toBeUndefined();
      await client.callTool("plain", {});
      expect(server.requests).not.toContain("GET");
      await client.close();
    } finally {
      await server.close();
    }
  });

  it("refuses resources/subscribe on a 2026 server, which takes subscriptions on listen streams", async () => {
    const client = await connect(everythingUrl());
    expect(client.backgroundState).toBeUndefined();
    await expect(client.subscribeResource("test://static/resource/1")).rejects.toMatchObject({
      kind: "client",
      method: "resources/subscribe",
    });
  });
});
