import { describe, expect, it } from "vitest";
import * as z from "zod";
import { durableObjects, type DurableCoordination } from "../../../../worker/durable/index.ts";
import {
  bearerTokens,
  defineServer,
  elicit,
  tool,
  ToolError,
  inputRounds,
  storedTasks,
  listenStreams,
} from "../../../../worker/mcp/index.ts";

import { eventually } from "../../../support/eventually.ts";
import { mcpRequest } from "../../../support/mcp-request.ts";
import type { Message } from "../../../support/reply.ts";
import { serve } from "../../custom-server.ts";
import { messages } from "../../stream.ts";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const WITH_TASKS = { ...TASKS, elicitation: {} };
const cancelledLabels = new Set<string>();

const definition = defineServer({
  name: "task-tests",
  version: "1",
  listen: listenStreams,
  tasks: storedTasks,
  input: inputRounds,
  tools: [
    tool({
      name: "count",
      description: "Counts slowly; may run as a task",
      input: z.object({
        to: z.number().int(),
        stepMs: z.number().int().default(20),
        label: z.string().default(""),
      }),
      output: z.object({ counted: z.number().int() }),
      task: { mode: "optional", ttlMs: 60_000, pollIntervalMs: 50 },
      run: async ({ to, stepMs, label }, ctx) => {
        for (let i = 0; i < to; i++) {
          await new Promise((r) => setTimeout(r, stepMs));
          if (ctx.signal.aborted) {
            cancelledLabels.add(label);
            throw new ToolError("cancelled");
          }
        }
        return { counted: to };
      },
    }),
    tool({
      name: "only_task",
      description: "Runs only as a task",
      task: { mode: "required" },
      run: () => "done",
    }),
    tool({
      name: "brief",
      description: "A task that expires quickly",
      task: { mode: "optional", ttlMs: 300 },
      run: () => "brief",
    }),
    tool({
      name: "ask",
      description: "A task that needs the user's name",
      task: { mode: "optional", pollIntervalMs: 50 },
      run: async (_args, ctx) => {
        const { who } = await ctx.input({
          who: elicit({ message: "Name?", schema: z.object({ name: z.string() }) }),
        });
        return who.action === "accept" ? `hi ${who.content.name}` : "nobody";
      },
    }),
    tool({
      name: "fails",
      description: "A task that fails with a protocol error",
      task: { mode: "optional" },
      inputSchema: { type: "object" },
      run: () => {
        throw new Error("boom");
      },
    }),
  ],
});

/** The server without Durable Objects, and with the task objects and the bus. */
const server = serve(definition);
const durableServer = serve(definition, {
  durable: (e) => durableObjects({ tasks: e.MCP_TASKS, bus: e.MCP_BUS }),
  authenticate: bearerTokens({ variable: "API_TOKENS" }),
  // Anonymous callers too: their tasks are theirs alone (below).
  anonymous: "all",
});

const send = (
  method: string,
  params: Record<string, unknown>,
  options: Parameters<typeof mcpRequest>[2] = {},
) =>
  durableServer.send(mcpRequest(method, params, { capabilities: WITH_TASKS, ...options }), method);

async function poll(
  taskId: string,
  until: (task: Message["result"]) => boolean,
  options: Parameters<typeof mcpRequest>[2] = {},
) {
  return eventually(
    async () => {
      const { final } = await send(
        "tasks/get",
        { taskId },
        { headers: { "Mcp-Name": taskId }, ...options },
      );
      return final?.error || until(final?.result) ? final : undefined;
    },
    { intervalMs: 30, what: `task ${taskId} reaching the expected state` },
  );
}

describe("tasks", () => {
  it("advertises the extension only where tasks can run", async () => {
    expect((await send("server/discover", {})).final?.result.capabilities.extensions).toEqual(
      TASKS.extensions,
    );
    expect(
      (await server.send(mcpRequest("server/discover"), "server/discover")).final?.result
        .capabilities.extensions,
    ).toBeUndefined();
  });

  it("creates a task durably and answers with the flat task shape", async () => {
    const { final } = await send("tools/call", { name: "count", arguments: { to: 5 } });
    expect(final?.result).toMatchObject({
      resultType: "task",
      taskId: expect.stringMatching(/^[0-9a-f]{64}$/),
      status: "working",
      ttlMs: 60_000,
      pollIntervalMs: 50,
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
    });
    expect(final?.result).not.toHaveProperty("task");
  });

  it("finishes after the creating request ended, and tasks/get returns the original result", async () => {
    const created = await send("tools/call", { name: "count", arguments: { to: 3 } });
    const taskId = created.final?.result.taskId;
    const done = await poll(taskId, (t) => t.status === "completed");
    expect(done?.result).toMatchObject({
      resultType: "complete",
      taskId,
      status: "completed",
      result: { structuredContent: { counted: 3 } },
    });
  });

  it("runs inline for clients without the extension", async () => {
    const { final } = await send(
      "tools/call",
      { name: "count", arguments: { to: 1 } },
      { capabilities: {} },
    );
    expect(final?.result).toMatchObject({
      resultType: "complete",
      structuredContent: { counted: 1 },
    });
  });

  it("refuses a task-only tool to clients without the extension (-32021)", async () => {
    const reply = await send(
      "tools/call",
      { name: "only_task", arguments: {} },
      { capabilities: {} },
    );
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: TASKS },
    });
  });

  it("cancels a running task, and the tool sees its signal abort", async () => {
    const label = crypto.randomUUID();
    const created = await send("tools/call", { name: "count", arguments: { to: 200, label } });
    const taskId = created.final?.result.taskId;
    await new Promise((r) => setTimeout(r, 60));
    expect(
      (await send("tasks/cancel", { taskId }, { headers: { "Mcp-Name": taskId } })).final?.result,
    ).toEqual({ resultType: "complete", _meta: expect.any(Object) });
    const cancelled = await poll(taskId, (t) => t.status === "cancelled");
    expect(cancelled?.result.status).toBe("cancelled");
    await eventually(async () => cancelledLabels.has(label) || undefined, {
      intervalMs: 20,
      what: "the tool seeing its signal abort",
    });
    expect(cancelledLabels.has(label)).toBe(true);
    // Cancelling again is harmless.
    expect(
      (await send("tasks/cancel", { taskId }, { headers: { "Mcp-Name": taskId } })).final?.result
        .resultType,
    ).toBe("complete");
  });

  it("parks in input_required until tasks/update brings the answer", async () => {
    const created = await send("tools/call", { name: "ask", arguments: {} });
    const taskId = created.final?.result.taskId;
    const waiting = await poll(taskId, (t) => t.status === "input_required");
    expect(waiting?.result.inputRequests).toMatchObject({
      who: { method: "elicitation/create", params: { message: "Name?" } },
    });
    const updated = await send(
      "tasks/update",
      { taskId, inputResponses: { who: { action: "accept", content: { name: "Ann" } }, other: 1 } },
      { headers: { "Mcp-Name": taskId } },
    );
    expect(updated.final?.result.resultType).toBe("complete");
    const done = await poll(taskId, (t) => t.status === "completed");
    expect(done?.result.result.content[0].text).toBe("hi Ann");
  });

  it("pushes task updates to listen streams that asked for the task", async () => {
    const created = await send("tools/call", { name: "count", arguments: { to: 10 } });
    const taskId = created.final?.result.taskId;
    const stream = messages(
      await durableServer.fetch(
        mcpRequest(
          "subscriptions/listen",
          { notifications: { taskIds: [taskId] } },
          { capabilities: WITH_TASKS },
        ),
      ),
      "subscriptions/listen",
    );
    expect((await stream.next()).params.notifications).toEqual({ taskIds: [taskId] });
    const update = await stream.next();
    expect(update).toMatchObject({
      method: "notifications/tasks",
      params: { taskId, status: "completed", result: { structuredContent: { counted: 10 } } },
    });
    await stream.close();
  });

  it("tells a listen stream naming another caller's task id nothing of it", async () => {
    const alice = { Authorization: "Bearer token-alice" };
    const created = await send(
      "tools/call",
      { name: "count", arguments: { to: 40, stepMs: 25 } },
      { headers: alice },
    );
    const taskId = created.final?.result.taskId;
    const listenAs = async (headers: Record<string, string>) => {
      const stream = messages(
        await durableServer.fetch(
          mcpRequest(
            "subscriptions/listen",
            { notifications: { taskIds: [taskId] } },
            { capabilities: WITH_TASKS, headers },
          ),
        ),
        "subscriptions/listen",
      );
      await stream.next();
      return stream;
    };
    const bob = await listenAs({ Authorization: "Bearer token-bob" });
    const anonymous = await listenAs({});
    const own = await listenAs(alice);
    expect(await own.next()).toMatchObject({ method: "notifications/tasks", params: { taskId } });
    // The task is over and published: the others' streams have had their chance.
    await expect(bob.next(300)).rejects.toThrow(/no message/i);
    await expect(anonymous.next(300)).rejects.toThrow(/no message/i);
    await own.close();
    // The others' readers still wait (for nothing): their streams end with the test's isolate.
    void bob.close();
    void anonymous.close();
  });

  it("expires after its time to live", async () => {
    const created = await send("tools/call", { name: "brief", arguments: {} });
    const taskId = created.final?.result.taskId;
    await new Promise((r) => setTimeout(r, 400));
    const { final } = await send("tasks/get", { taskId }, { headers: { "Mcp-Name": taskId } });
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Unknown task "/),
      data: { taskId },
    });
  });

  it("hides a task from other callers", async () => {
    const created = await send(
      "tools/call",
      { name: "count", arguments: { to: 1 } },
      { headers: { Authorization: "Bearer token-alice" } },
    );
    expect(created.final?.result.resultType).toBe("task");
    const taskId = created.final?.result.taskId;
    const own = await send(
      "tasks/get",
      { taskId },
      { headers: { "Mcp-Name": taskId, Authorization: "Bearer token-alice" } },
    );
    expect(own.final?.result).toMatchObject({ resultType: "complete", taskId });
    const { final } = await send(
      "tasks/get",
      { taskId },
      { headers: { "Mcp-Name": taskId, Authorization: "Bearer token-bob" } },
    );
    expect(final?.error.code).toBe(-32602);
    expect(final?.error.message).toMatch(/^Unknown task/);
    expect(final?.error.data).toEqual({ taskId });
  });

  it.each([
    ["an unknown id", "f".repeat(64)],
    ["a malformed id", "not-a-task"],
  ])("answers %s with -32602", async (_what, taskId) => {
    const { final } = await send("tasks/get", { taskId }, { headers: { "Mcp-Name": taskId } });
    expect(final?.error).toMatchObject({
      code: -32602,
      message: `Unknown task "${taskId}": it never existed, expired, or belongs to another caller.`,
      data: { taskId },
    });
  });

  it.each([
    ["tasks/update", { inputResponses: { who: { action: "decline" } } }],
    ["tasks/cancel", {}],
  ])("answers %s of an unknown task with -32602", async (method, params) => {
    const taskId = "f".repeat(64);
    const { final } = await send(
      method,
      { taskId, ...params },
      { headers: { "Mcp-Name": taskId } },
    );
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Unknown task "f{64}"/),
      data: { taskId },
    });
  });

  it("answers tasks/update without inputResponses with -32602", async () => {
    const created = await send("tools/call", { name: "ask", arguments: {} });
    const taskId = created.final?.result.taskId;
    const { final } = await send("tasks/update", { taskId }, { headers: { "Mcp-Name": taskId } });
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("Invalid params for tasks/update: params.inputResponses"),
    });
  });

  it("refuses a task-only tool where tasks cannot run (-32601)", async () => {
    const { status, final } = await server.send(
      mcpRequest("tools/call", { name: "only_task", arguments: {} }, { capabilities: TASKS }),
      "tools/call",
    );
    expect(status).toBe(404);
    expect(final?.error).toMatchObject({
      code: -32601,
      message: expect.stringContaining('Tool "only_task" runs only as a task'),
    });
  });

  it("has no tasks/* methods where tasks cannot run (-32601)", async () => {
    const taskId = "f".repeat(64);
    const { status, final } = await server.send(
      mcpRequest("tasks/get", { taskId }, { capabilities: TASKS, headers: { "Mcp-Name": taskId } }),
      "tasks/get",
    );
    expect(status).toBe(404);
    expect(final?.error).toMatchObject({
      code: -32601,
      message: expect.stringContaining('Method not found: "tasks/get"'),
    });
  });

  it("needs the extension on tasks/* requests (-32021) and Mcp-Name to match (-32020)", async () => {
    const taskId = "f".repeat(64);
    const without = await send(
      "tasks/get",
      { taskId },
      { capabilities: {}, headers: { "Mcp-Name": taskId } },
    );
    expect(without.final?.error.code).toBe(-32021);
    const mismatch = await send("tasks/get", { taskId }, { headers: { "Mcp-Name": "other" } });
    expect(mismatch.final?.error.code).toBe(-32020);
  });

  it("records a tool failure as a completed task with isError", async () => {
    const created = await send("tools/call", { name: "fails", arguments: {} });
    const done = await poll(created.final?.result.taskId, (t) => t.status !== "working");
    expect(done?.result).toMatchObject({ status: "completed", result: { isError: true } });
  });
});

describe("a durable option without durableObjects()", () => {
  it("refuses every call with a 500 that says how to fix it", async () => {
    // What a JavaScript caller (no type check) could pass: bare namespaces, not the ports.
    const bare = (e: Cloudflare.Env) => ({ tasks: e.MCP_TASKS }) as unknown as DurableCoordination;
    const misconfigured = serve(definition, { durable: bare });
    const response = await misconfigured.fetch(mcpRequest("tools/list"));
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      error: {
        code: -32600,
        message: expect.stringMatching(/^Server misconfigured: .*durableObjects\(/),
      },
    });
  });
});
