import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connect,
  type ListenNotification,
  type LogMessageParams,
  type McpClient,
  type Progress,
} from "../../../shared/client/index.ts";
import { textOf } from "../support/clients.ts";
import { README_URI, startSdkV2Server } from "./sdk-servers.ts";
import { eventually } from "../../support/eventually.ts";
import { wireRecorder } from "./support.ts";

describe("edgemcp client against an @modelcontextprotocol/server 2.4.0 server (2026-07-28)", () => {
  let server: Awaited<ReturnType<typeof startSdkV2Server>>;
  let client: McpClient;
  const wire = wireRecorder();
  beforeAll(async () => {
    server = await startSdkV2Server();
    client = await connect(server.url, {
      onWire: wire.onWire,
      handlers: { elicitation: async () => ({ action: "accept", content: { ok: true } }) },
    });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it("connects in the 2026 era and reads serverInfo from the discover result's _meta", () => {
    expect(client.era).toBe("modern");
    expect(client.server).toMatchObject({
      protocolVersion: "2026-07-28",
      supportedVersions: ["2026-07-28"],
      serverInfo: { name: "sdk-v2-test", version: "2.4.0" },
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
    });
    expect(wire.methods()[0]).toBe("server/discover");
  });

  it("lists tools and calls one", async () => {
    const tools = await client.listTools();
    expect(tools.result.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["echo", "hdr", "slow", "confirm"]),
    );
    const { result } = await client.callTool("echo", { text: "hi" });
    expect(textOf(result)).toBe("hi");
  });

  it("passes the SDK's Mcp-Param-* checks, base64 sentinels included", async () => {
    wire.clear();
    const { result } = await client.callTool("hdr", { region: " eu ", n: 7 });
    expect(JSON.parse(textOf(result))).toEqual({ region: " eu ", n: 7 });
    const headers = wire.sent.find((sent) => sent.method === "tools/call")?.headers;
    expect(headers?.get("Mcp-Param-Region")).toBe("=?base64?IGV1IA==?=");
    expect(headers?.get("Mcp-Param-N")).toBe("7");
  });

  it("delivers progress from the SDK's SSE stream", async () => {
    const progress: Progress[] = [];
    const { result } = await client.callTool(
      "slow",
      { steps: 3, label: "progress" },
      { onProgress: (p) => progress.push(p) },
    );
    expect(textOf(result)).toBe("counted to 3");
    expect(progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });

  it("cancels by closing the stream, which aborts the SDK handler", async () => {
    const controller = new AbortController();
    const call = client.callTool(
      "slow",
      { steps: 100, label: "cancel-me" },
      { signal: controller.signal, onProgress: (p) => p.progress >= 2 && controller.abort() },
    );
    await expect(call).rejects.toMatchObject({ kind: "aborted" });
    await eventually(async () =>
      server.observed.aborted.includes("cancel-me") ? true : undefined,
    );
  });

  it("asks for log messages with logLevel", async () => {
    const logs: LogMessageParams[] = [];
    await client.callTool("chatty", {}, { logLevel: "info", onLog: (log) => logs.push(log) });
    expect(logs.map((log) => log.data)).toEqual(["first"]);
  });

  it("answers the SDK's input_required result and echoes its requestState", async () => {
    wire.clear();
    const { result } = await client.callTool("confirm", { what: "deploy" });
    expect(textOf(result)).toBe("did deploy");
    expect(wire.sent[1]?.params).toMatchObject({
      inputResponses: { confirm: { action: "accept", content: { ok: true } } },
      requestState: "asked-once",
    });
  });

  it("reads a resource once within its cache hint", async () => {
    const first = await client.readResource(README_URI);
    const second = await client.readResource(README_URI);
    expect([first.source, second.source]).toEqual(["network", "cache"]);
    expect(second.result.contents).toEqual([
      { uri: README_URI, mimeType: "text/plain", text: "hello" },
    ]);
  });

  it("gets a prompt", async () => {
    const { result } = await client.getPrompt("greet", { name: "Ann" });
    expect(result.messages).toEqual([{ role: "user", content: { type: "text", text: "hi Ann" } }]);
  });

  it("listens: the SDK acknowledges, its notifications arrive and invalidate the cache", async () => {
    await client.readResource(README_URI);
    await client.listTools();
    const subscription = await client.listen({
      toolsListChanged: true,
      resourceSubscriptions: [README_URI],
    });
    expect(subscription.honoured).toMatchObject({
      toolsListChanged: true,
      resourceSubscriptions: [README_URI],
    });
    server.notify.resourceUpdated(README_URI);
    server.notify.toolsChanged();
    const seen: ListenNotification[] = [];
    for await (const notification of subscription) {
      seen.push(notification);
      if (seen.length === 2) break;
    }
    expect(seen.map((n) => n.method)).toEqual([
      "notifications/resources/updated",
      "notifications/tools/list_changed",
    ]);
    expect(await subscription.closed).toBe("local");
    expect((await client.readResource(README_URI)).source).toBe("network");
    expect((await client.listTools()).source).toBe("network");
  });
});
