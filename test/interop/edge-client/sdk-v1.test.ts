import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connect,
  McpError,
  type LogMessageParams,
  type McpClient,
  type Progress,
} from "../../../shared/client/index.ts";
import { textOf } from "../support/clients.ts";
import { README_URI, startSdkV1Server } from "./sdk-servers.ts";
import { eventually } from "../../support/eventually.ts";
import { wireRecorder } from "./support.ts";

describe("edgemcp client against an @modelcontextprotocol/sdk 1.32.2 server (2025, sessions on)", () => {
  let server: Awaited<ReturnType<typeof startSdkV1Server>>;
  let client: McpClient;
  const wire = wireRecorder();
  beforeAll(async () => {
    server = await startSdkV1Server();
    client = await connect(server.url, {
      onWire: wire.onWire,
      handlers: { elicitation: async () => ({ action: "accept", content: { name: "Ann" } }) },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("falls back to initialize after the discover probe and keeps the session id", () => {
    expect(client.era).toBe("legacy");
    expect(wire.methods()).toEqual(["server/discover", "initialize", "notifications/initialized"]);
    expect(client.sessionId).toEqual(expect.any(String));
    expect([...server.sessions.keys()]).toEqual([client.sessionId]);
    expect(wire.sent[1]?.headers.has("MCP-Protocol-Version")).toBe(false);
    expect(wire.sent[1]?.headers.has("Mcp-Session-Id")).toBe(false);
    expect(wire.sent[2]?.headers.get("Mcp-Session-Id")).toBe(client.sessionId);
  });

  it("maps the initialize result to the discover shape", () => {
    expect(client.server).toMatchObject({
      era: "legacy",
      protocolVersion: "2025-11-25",
      supportedVersions: ["2025-11-25"],
      serverInfo: { name: "sdk-v1-test", version: "1.32.2" },
      capabilities: { tools: {}, logging: {} },
    });
  });

  it("sends 2025 requests: negotiated version and session id, no 2026 headers or envelope", async () => {
    wire.clear();
    const { result } = await client.callTool("echo", { text: "hi" });
    expect(textOf(result)).toBe("hi");
    const call = wire.sent.find((sent) => sent.method === "tools/call");
    expect(call?.headers.get("MCP-Protocol-Version")).toBe("2025-11-25");
    expect(call?.headers.get("Mcp-Session-Id")).toBe(client.sessionId);
    expect(call?.headers.has("Mcp-Method")).toBe(false);
    expect(call?.headers.has("Mcp-Name")).toBe(false);
    expect(call?.params).not.toHaveProperty("_meta");
    // No tools/list first: 2025 has no Mcp-Param headers to build.
    expect(wire.methods()).toEqual(["tools/call"]);
  });

  it("lists tools and reads resources (nothing is cached without ttlMs)", async () => {
    const tools = await client.listTools();
    expect(tools.result.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["echo", "slow", "ask"]),
    );
    const first = await client.readResource(README_URI);
    const second = await client.readResource(README_URI);
    expect([first.source, second.source]).toEqual(["network", "network"]);
    expect(second.result.contents[0]).toMatchObject({ text: "hello" });
  });

  it("asks for progress with _meta.progressToken and delivers it", async () => {
    wire.clear();
    const progress: Progress[] = [];
    await client.callTool(
      "slow",
      { steps: 2, label: "progress" },
      { onProgress: (p) => progress.push(p) },
    );
    expect(progress).toEqual([
      { progress: 1, total: 2 },
      { progress: 2, total: 2 },
    ]);
    expect(wire.sent[0]?.params?._meta).toEqual({ progressToken: wire.sent[0]?.id });
  });

  it("cancels by aborting and posting notifications/cancelled", async () => {
    wire.clear();
    const controller = new AbortController();
    const call = client.callTool(
      "slow",
      { steps: 100, label: "cancel-me" },
      { signal: controller.signal, onProgress: (p) => p.progress >= 2 && controller.abort() },
    );
    await expect(call).rejects.toMatchObject({ kind: "aborted", era: "legacy" });
    const [request, cancelled] = wire.sent;
    expect(cancelled).toMatchObject({
      method: "notifications/cancelled",
      params: { requestId: request?.id },
    });
    expect(cancelled?.headers.get("Mcp-Session-Id")).toBe(client.sessionId);
    await eventually(async () =>
      server.observed.aborted.includes("cancel-me") ? true : undefined,
    );
  });

  it("answers a server request sent on the response stream with its handler", async () => {
    wire.clear();
    const { result } = await client.callTool("ask", {});
    expect(textOf(result)).toBe("hello Ann");
    const answer = wire.sent.find((sent) => sent.method === undefined);
    expect(answer?.headers.get("Mcp-Session-Id")).toBe(client.sessionId);
  });

  it("sets the session's log level once with logging/setLevel and delivers log messages", async () => {
    wire.clear();
    const logs: LogMessageParams[] = [];
    await client.callTool("chatty", {}, { logLevel: "info", onLog: (log) => logs.push(log) });
    await client.callTool("chatty", {}, { logLevel: "info" });
    expect(wire.methods()).toEqual(["logging/setLevel", "tools/call", "tools/call"]);
    expect(logs).toEqual([{ level: "info", data: "hello from v1" }]);
  });

  it("refuses listen, which needs a 2026 server; a server without tasks refuses tasks/get", async () => {
    await expect(client.listen({ toolsListChanged: true })).rejects.toMatchObject({
      kind: "client",
      era: "legacy",
    });
    await expect(client.task("task-1")).rejects.toMatchObject({
      kind: "rpc",
      code: -32601,
      method: "tasks/get",
    });
  });

  it("ends the session with DELETE on close", async () => {
    const sessionId = client.sessionId;
    await client.close();
    expect(server.closedSessions).toEqual([sessionId]);
  });

  it("gets a typed HTTP error when the session is gone", async () => {
    const call = client.callTool("echo", { text: "late" });
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({ kind: "http", status: 404, era: "legacy" });
  });
});
