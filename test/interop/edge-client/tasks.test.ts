import { afterEach, describe, expect, it } from "vitest";
import { connect, TaskHandle, TASKS_EXTENSION, type Task } from "../../../shared/client/index.ts";
import { textOf } from "../support/clients.ts";
import { startFakeServer, type FakeServer } from "./fake-server.ts";
import { ANSWERING } from "./support.ts";

const TASK_ID = "786512e2-9e0d-44bd-8f29-789f320fe840";
const POLL_MS = 60;
const CAPABILITIES = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
const HANDLERS = { elicitation: ANSWERING.elicitation };

function task(status: Task["status"], extra: Record<string, unknown> = {}) {
  return {
    taskId: TASK_ID,
    status,
    createdAt: "2026-08-01T10:30:00Z",
    lastUpdatedAt: "2026-08-01T10:30:00Z",
    ttlMs: 60_000,
    pollIntervalMs: POLL_MS,
    ...extra,
  };
}

const done = (text: string) =>
  task("completed", { result: { resultType: "complete", content: [{ type: "text", text }] } });

/**
 * A fake 2026 server whose `tools/call` becomes a task; each `tasks/get` answers the next
 * state of `states` (the last one repeats).
 */
function startTaskServer(states: Record<string, unknown>[]): Promise<FakeServer> {
  const pending = [...states];
  return startFakeServer({
    "server/discover": (_call, reply) =>
      reply.result({
        resultType: "complete",
        supportedVersions: ["2026-07-28"],
        capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
        ttlMs: 0,
        cacheScope: "public",
      }),
    "tools/list": (_call, reply) =>
      reply.result({
        resultType: "complete",
        tools: [{ name: "build", inputSchema: { type: "object" } }],
        ttlMs: 0,
        cacheScope: "public",
      }),
    "tools/call": (_call, reply) => reply.result({ resultType: "task", ...task("working") }),
    "tasks/get": (_call, reply) => {
      const next = pending.length > 1 ? pending.shift() : pending[0];
      reply.result({ resultType: "complete", ...next });
    },
    "tasks/update": (_call, reply) => reply.result({ resultType: "complete" }),
    "tasks/cancel": (_call, reply) => {
      pending.splice(
        0,
        pending.length,
        task("cancelled", { statusMessage: "Cancelled by client" }),
      );
      reply.result({ resultType: "complete" });
    },
  });
}

describe("edgemcp client: tasks (io.modelcontextprotocol/tasks) against a fake 2026 server", () => {
  let fake: FakeServer;
  afterEach(() => fake.close());

  it("declares the extension and polls tasks/get at pollIntervalMs until the result", async () => {
    fake = await startTaskServer([task("working"), done("built")]);
    const client = await connect(fake.url, { capabilities: CAPABILITIES, handlers: HANDLERS });
    const { result } = await client.callTool("build");
    expect(textOf(result)).toBe("built");
    const gets = fake.callsOf("tasks/get");
    expect(gets).toHaveLength(2);
    for (const get of gets) {
      expect(get.params).toMatchObject({ taskId: TASK_ID });
      expect(get.headers.get("mcp-method")).toBe("tasks/get");
      expect(get.headers.get("mcp-name")).toBe(TASK_ID);
    }
    const [call] = fake.callsOf("tools/call");
    expect(call?.params._meta).toMatchObject({
      "io.modelcontextprotocol/clientCapabilities": CAPABILITIES,
    });
    const times = [call, ...gets].map((c) => c?.at ?? 0);
    for (let i = 1; i < times.length; i++) {
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(POLL_MS - 10);
    }
  });

  it("reports each polled state to onStatus", async () => {
    fake = await startTaskServer([task("working"), done("built")]);
    const client = await connect(fake.url, { capabilities: CAPABILITIES, handlers: HANDLERS });
    const { result: handle } = await client.callTool("build", {}, { returnTask: true });
    if (!(handle instanceof TaskHandle)) throw new Error("expected a task");
    const states: string[] = [];
    await handle.result({ onStatus: (t) => states.push(t.status) });
    expect(states).toEqual(["working", "working", "completed"]);
    expect(handle.task.status).toBe("completed");
  });

  it("answers an input-required task once per key through tasks/update", async () => {
    const asking = task("input_required", {
      inputRequests: {
        q1: {
          method: "elicitation/create",
          params: {
            message: "Your name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } } },
          },
        },
      },
    });
    fake = await startTaskServer([asking, asking, done("hello Ann")]);
    const client = await connect(fake.url, { capabilities: CAPABILITIES, handlers: HANDLERS });
    const { result } = await client.callTool("build");
    expect(textOf(result)).toBe("hello Ann");
    const updates = fake.callsOf("tasks/update");
    expect(updates).toHaveLength(1);
    expect(updates[0]?.params).toMatchObject({
      taskId: TASK_ID,
      inputResponses: { q1: { action: "accept", content: { name: "Ann" } } },
    });
    expect(updates[0]?.headers.get("mcp-name")).toBe(TASK_ID);
  });

  it("sends Mcp-Name only for the task methods the revision defines", async () => {
    fake = await startFakeServer({
      "tasks/list": (_call, reply) => reply.result({ resultType: "complete", tasks: [] }),
    });
    const client = await connect(fake.url);
    await client.request("tasks/list", { taskId: TASK_ID });
    const [list] = fake.callsOf("tasks/list");
    expect(list?.headers.get("mcp-method")).toBe("tasks/list");
    expect(list?.headers.has("mcp-name")).toBe(false);
  });

  it("returns a handle on request, which cancels the task with tasks/cancel", async () => {
    fake = await startTaskServer([task("working")]);
    const client = await connect(fake.url, { capabilities: CAPABILITIES, handlers: HANDLERS });
    const { result: handle } = await client.callTool("build", {}, { returnTask: true });
    if (!(handle instanceof TaskHandle)) throw new Error("expected a task");
    expect(handle.taskId).toBe(TASK_ID);
    expect(handle.task.status).toBe("working");
    await handle.cancel();
    expect(fake.callsOf("tasks/cancel")[0]?.headers.get("mcp-name")).toBe(TASK_ID);
    expect((await handle.refresh()).status).toBe("cancelled");
    await expect(handle.result()).rejects.toMatchObject({
      kind: "aborted",
      data: { taskId: TASK_ID, statusMessage: "Cancelled by client" },
    });
  });

  it("resolves a completed task's isError result as a result", async () => {
    const failedTool = task("completed", {
      result: { content: [{ type: "text", text: "disk full" }], isError: true },
    });
    fake = await startTaskServer([failedTool]);
    const client = await connect(fake.url, { capabilities: CAPABILITIES, handlers: HANDLERS });
    const { result } = await client.callTool("build");
    expect(result.isError).toBe(true);
  });

  it("rejects a failed task with its JSON-RPC error", async () => {
    fake = await startTaskServer([
      task("failed", {
        error: { code: -32603, message: "Worker crashed", data: { at: "step 3" } },
      }),
    ]);
    const client = await connect(fake.url, { capabilities: CAPABILITIES, handlers: HANDLERS });
    await expect(client.callTool("build")).rejects.toMatchObject({
      kind: "rpc",
      code: -32603,
      message: "Worker crashed",
      data: { at: "step 3" },
    });
  });

  it("cancels the task when the caller aborts while it runs", async () => {
    fake = await startTaskServer([task("working")]);
    const client = await connect(fake.url, { capabilities: CAPABILITIES, handlers: HANDLERS });
    const controller = new AbortController();
    const call = client.callTool("build", {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), POLL_MS * 2.5);
    await expect(call).rejects.toMatchObject({ kind: "aborted" });
    expect(fake.callsOf("tasks/cancel")).toHaveLength(1);
  });

  it("gives a handle on a task known by id", async () => {
    fake = await startTaskServer([done("built")]);
    const client = await connect(fake.url, { capabilities: CAPABILITIES, handlers: HANDLERS });
    const handle = await client.task(TASK_ID);
    expect(handle.task.status).toBe("completed");
    expect(textOf(await handle.result())).toBe("built");
  });
});
