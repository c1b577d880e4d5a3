import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connect,
  McpError,
  TaskHandle,
  type McpClient,
  type Task,
} from "../../../shared/client/index.ts";
import { textOf } from "../support/clients.ts";
import { startLegacySessionServer } from "./legacy-session-server.ts";
import { wireRecorder } from "./support.ts";

describe("edgemcp client and 2025-11-25 tasks of an @modelcontextprotocol/sdk 1.32.2 server", () => {
  let server: Awaited<ReturnType<typeof startLegacySessionServer>>;
  let client: McpClient;
  const wire = wireRecorder();
  beforeAll(async () => {
    server = await startLegacySessionServer();
    client = await connect(server.url, {
      handshake: "initialize",
      onWire: wire.onWire,
      handlers: { elicitation: async () => ({ action: "accept", content: { angle: "history" } }) },
    });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it("keeps each listed tool's execution.taskSupport", async () => {
    const { result } = await client.listTools();
    const support = Object.fromEntries(
      result.tools.map((tool) => [tool.name, tool.execution?.taskSupport]),
    );
    expect(support).toMatchObject({ research: "required", tally: "optional", plain: "forbidden" });
  });

  it("runs a task-required tool as a task: task param, tasks/get at its pollInterval, tasks/result", async () => {
    wire.clear();
    const seen: Task[] = [];
    const { result } = await client.callTool(
      "research",
      { topic: "tides" },
      { onStatus: (task) => seen.push(task) },
    );
    expect(textOf(result)).toBe("report on tides (general)");
    const call = wire.sent.find((sent) => sent.method === "tools/call");
    expect(call?.params).toMatchObject({ name: "research", task: {} });
    expect(seen[0]).toMatchObject({ status: "working", pollIntervalMs: 50, ttlMs: 60_000 });
    expect(seen.at(-1)?.status).toBe("completed");
    expect(seen.map((task) => task.statusMessage)).toContain("Writing...");
    const methods = wire.methods();
    expect(methods.filter((m) => m === "tasks/get").length).toBeGreaterThanOrEqual(2);
    expect(methods.at(-1)).toBe("tasks/result");
  });

  it("answers a task's input request on the tasks/result stream and gets the result", async () => {
    const { result } = await client.callTool("research", { topic: "ports", ask: true });
    expect(textOf(result)).toBe("report on ports (history)");
    expect(server.log.answers).toEqual(["history"]);
  });

  it("returns a handle with returnTask, whose cancel ends the task as cancelled", async () => {
    const { result } = await client.callTool("research", { topic: "dunes" }, { returnTask: true });
    expect(result).toBeInstanceOf(TaskHandle);
    if (!(result instanceof TaskHandle)) return;
    expect(server.log.created).toContain(result.taskId);
    await result.cancel();
    expect(await result.refresh()).toMatchObject({ taskId: result.taskId, status: "cancelled" });
    await expect(result.result()).rejects.toMatchObject({ kind: "aborted" });
  });

  it("calls a task-optional tool plainly unless asked, and as a task with asTask", async () => {
    wire.clear();
    const plain = await client.callTool("tally", { n: 3 });
    expect(wire.sent.find((sent) => sent.method === "tools/call")?.params).not.toHaveProperty(
      "task",
    );
    expect(textOf(plain.result)).toBe("counted 3 as a task");
    wire.clear();
    const { result } = await client.callTool("tally", { n: 4 }, { asTask: true, taskTtlMs: 5000 });
    expect(textOf(result)).toBe("counted 4 as a task");
    const call = wire.sent.find((sent) => sent.method === "tools/call");
    expect(call?.params).toMatchObject({ task: { ttl: 5000 } });
    expect(wire.methods()).toContain("tasks/result");
  });

  it("refuses, before sending, a task for a tool that forbids it and a plain call of a task-only tool", async () => {
    wire.clear();
    const forbidden = await client.callTool("plain", {}, { asTask: true }).catch((e) => e);
    expect(forbidden).toBeInstanceOf(McpError);
    expect(forbidden).toMatchObject({
      kind: "client",
      message: 'The tool "plain" cannot run as a task.',
    });
    const required = await client
      .callTool("research", { topic: "x" }, { asTask: false })
      .catch((e) => e);
    expect(required).toMatchObject({
      kind: "client",
      message: 'The tool "research" runs only as a task.',
    });
    expect(wire.methods()).not.toContain("tools/call");
  });

  it("finds a task by id with tasks/get and refuses tasks/update, which 2025 does not have", async () => {
    const { result } = await client.callTool("tally", { n: 1 }, { asTask: true, returnTask: true });
    if (!(result instanceof TaskHandle)) throw new Error("expected a task");
    const found = await client.task(result.taskId);
    expect(found.task.taskId).toBe(result.taskId);
    await expect(found.update({})).rejects.toMatchObject({ kind: "client" });
    expect(textOf(await found.result())).toBe("counted 1 as a task");
  });
});
