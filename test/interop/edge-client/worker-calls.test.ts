import { beforeAll, describe, expect, it } from "vitest";
import {
  connect,
  type LogMessageParams,
  type McpClient,
  type Progress,
} from "../../../shared/client/index.ts";
import { everythingUrl, textOf, uniqueLabel } from "../support/clients.ts";
import { eventually } from "../../support/eventually.ts";
import { wireRecorder } from "./support.ts";

describe("edgemcp client against the Worker: tool calls", () => {
  let client: McpClient;
  const wire = wireRecorder();
  beforeAll(async () => {
    client = await connect(everythingUrl(), { onWire: wire.onWire });
  });

  it("returns validated structured content, objects and arrays alike", async () => {
    const sum = await client.callTool("add_numbers", { a: 2, b: 3 });
    expect(sum.source).toBe("network");
    expect(sum.result.structuredContent).toEqual({ sum: 5 });
    const primes = await client.callTool("list_primes", { below: 12 });
    expect(primes.result.structuredContent).toEqual([2, 3, 5, 7, 11]);
  });

  it("returns a tool's own failure as an isError result", async () => {
    const { result } = await client.callTool("test_error_handling", {});
    expect(result.isError).toBe(true);
  });

  it("sends Mcp-Method and Mcp-Name with every call", async () => {
    wire.clear();
    await client.callTool("test_simple_text");
    const call = wire.sent.find((sent) => sent.method === "tools/call");
    expect(call?.headers.get("Mcp-Method")).toBe("tools/call");
    expect(call?.headers.get("Mcp-Name")).toBe("test_simple_text");
    expect(call?.headers.get("MCP-Protocol-Version")).toBe("2026-07-28");
  });
});

describe("edgemcp client against the Worker: x-mcp-header arguments", () => {
  it("fetches the tool list first, then mirrors declared arguments in Mcp-Param-* headers", async () => {
    const wire = wireRecorder();
    const client = await connect(everythingUrl(), { onWire: wire.onWire });
    wire.clear();
    const { result } = await client.callTool("test_x_mcp_header", {
      region: "eu-west",
      priority: 3,
      urgent: true,
    });
    expect(textOf(result)).toBe("region=eu-west priority=3 urgent=true");
    expect(wire.methods()).toEqual(["tools/list", "tools/call"]);
    const headers = wire.sent[1]?.headers;
    expect(headers?.get("Mcp-Param-Region")).toBe("eu-west");
    expect(headers?.get("Mcp-Param-Priority")).toBe("3");
    expect(headers?.get("Mcp-Param-Urgent")).toBe("true");
  });

  it("base64-encodes values that are not safe header text", async () => {
    const wire = wireRecorder();
    const client = await connect(everythingUrl(), { onWire: wire.onWire });
    await client.listTools();
    wire.clear();
    const { result } = await client.callTool("test_x_mcp_header", { region: " Zürich " });
    expect(textOf(result)).toBe("region= Zürich  priority=- urgent=-");
    const headers = wire.sent[0]?.headers;
    expect(headers?.get("Mcp-Param-Region")).toBe(
      `=?base64?${Buffer.from(" Zürich ").toString("base64")}?=`,
    );
    expect(headers?.has("Mcp-Param-Priority")).toBe(false);
  });

  it("base64-encodes a value that looks like the sentinel itself", async () => {
    const client = await connect(everythingUrl());
    const { result } = await client.callTool("test_x_mcp_header", { region: "=?base64?eA==?=" });
    expect(textOf(result)).toBe("region==?base64?eA==?= priority=- urgent=-");
  });
});

describe("edgemcp client against the Worker: progress, logs and cancellation", () => {
  let client: McpClient;
  const wire = wireRecorder();
  beforeAll(async () => {
    client = await connect(everythingUrl(), { onWire: wire.onWire });
  });

  it("asks for progress with a progressToken and delivers every notification", async () => {
    wire.clear();
    const progress: Progress[] = [];
    const { result } = await client.callTool(
      "test_tool_with_progress",
      {},
      { onProgress: (p) => progress.push(p) },
    );
    expect(progress.map((p) => p.progress)).toEqual([0, 50, 100]);
    expect(progress[1]).toEqual({ progress: 50, total: 100, message: "Completed step 50 of 100" });
    const token = wire.sent.find((sent) => sent.method === "tools/call")?.params?._meta
      ?.progressToken;
    expect(textOf(result)).toBe(String(token));
  });

  it("sends no progressToken when no one listens", async () => {
    wire.clear();
    await client.callTool("test_simple_text");
    const call = wire.sent.find((sent) => sent.method === "tools/call");
    expect(call?.params?._meta).not.toHaveProperty("progressToken");
  });

  it("asks for log messages with logLevel and delivers them", async () => {
    wire.clear();
    const logs: LogMessageParams[] = [];
    await client.callTool(
      "test_tool_with_logging",
      {},
      { logLevel: "info", onLog: (m) => logs.push(m) },
    );
    expect(logs.map((log) => log.data)).toEqual([
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
    expect(logs.every((log) => log.level === "info")).toBe(true);
    const call = wire.sent.find((sent) => sent.method === "tools/call");
    expect(call?.params?._meta).toHaveProperty("io.modelcontextprotocol/logLevel", "info");
  });

  it("receives no log messages without a logLevel", async () => {
    const logs: LogMessageParams[] = [];
    await client.callTool("test_tool_with_logging", {}, { onLog: (m) => logs.push(m) });
    expect(logs).toEqual([]);
  });

  it("filters log messages below the requested level on the server", async () => {
    const logs: LogMessageParams[] = [];
    await client.callTool(
      "test_tool_with_logging",
      {},
      { logLevel: "error", onLog: (m) => logs.push(m) },
    );
    expect(logs).toEqual([]);
  });

  it("cancels by aborting: the stream closes and the server's handler sees the abort", async () => {
    const label = uniqueLabel("edge-client-abort");
    const controller = new AbortController();
    const call = client.callTool(
      "test_slow_counter",
      { steps: 50, delayMs: 100, label },
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.progress >= 2) controller.abort();
        },
      },
    );
    await expect(call).rejects.toMatchObject({ kind: "aborted", method: "tools/call" });
    const status = await eventually(async () => {
      const { result } = await client.callTool("test_abort_status", { label });
      const text = textOf(result);
      return text.startsWith("aborted") ? text : undefined;
    });
    const step = new RegExp(`^aborted: ${label} at step (\\d+)`).exec(status)?.[1];
    expect(Number(step)).toBeLessThan(50);
  });

  it("fails at once when the signal has already fired", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      client.callTool("test_simple_text", {}, { signal: controller.signal }),
    ).rejects.toMatchObject({ kind: "aborted" });
  });
});

describe("edgemcp client against the Worker in the 2025 era (handshake: initialize)", () => {
  let client: McpClient;
  const wire = wireRecorder();
  beforeAll(async () => {
    client = await connect(everythingUrl(), { handshake: "initialize", onWire: wire.onWire });
  });

  it("keeps the session id initialize gave and sends it on every later message", async () => {
    expect(client.era).toBe("legacy");
    expect(client.sessionId).toMatch(/^[A-Za-z0-9_-]{22}\.[eustr]*$/);
    const label = uniqueLabel("edge-client-legacy-abort");
    const controller = new AbortController();
    const call = client.callTool(
      "test_slow_counter",
      { steps: 50, delayMs: 100, label },
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    await expect(call).rejects.toMatchObject({ kind: "aborted", method: "tools/call" });
    // The cancel is posted after the abort rejects the call.
    await eventually(async () =>
      wire.methods().includes("notifications/cancelled") ? true : undefined,
    );
    expect(wire.methods().slice(0, 2)).toEqual(["initialize", "notifications/initialized"]);
    const later = wire.sent.slice(1);
    expect(later.map((sent) => sent.method)).toEqual(
      expect.arrayContaining(["tools/call", "notifications/cancelled"]),
    );
    expect(later.map((sent) => sent.headers.get("Mcp-Session-Id"))).toEqual(
      later.map(() => client.sessionId),
    );
    await eventually(async () => {
      const { result } = await client.callTool("test_abort_status", { label });
      return textOf(result).startsWith("aborted") ? true : undefined;
    });
  });

  it("closes quietly: the Worker answers the DELETE that ends its session with 204", async () => {
    await expect(client.close()).resolves.toBeUndefined();
  });
});
