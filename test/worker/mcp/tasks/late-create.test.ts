import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { durableObjects } from "../../../../worker/durable/index.ts";
import type { TaskObject } from "../../../../worker/durable/task-object.ts";
import { taskStoreOver } from "../../../../worker/durable/task-store.ts";
import { defineServer, storedTasks, tool } from "../../../../worker/mcp/index.ts";
import { eventually } from "../../../support/eventually.ts";
import { mcpRequest } from "../../../support/mcp-request.ts";
import { serve } from "../../custom-server.ts";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const BOUND_MS = 300;
/** How long past the bound the slow task objects take. */
const LATE_MS = 3 * BOUND_MS;

/** The labels of the runs that started, and of those that saw their signal abort. */
const started = new Set<string>();
const aborted = new Set<string>();

const definition = defineServer({
  name: "late-tasks",
  version: "1",
  tasks: storedTasks,
  tools: [
    tool({
      name: "work",
      description: "Works until it is aborted (a few seconds at most)",
      input: z.object({ label: z.string() }),
      task: { mode: "optional", ttlMs: 60_000 },
      run: async ({ label }, ctx) => {
        started.add(label);
        for (let i = 0; i < 100 && !ctx.signal.aborted; i++)
          await new Promise((r) => setTimeout(r, 50));
        if (ctx.signal.aborted) aborted.add(label);
        return "worked";
      },
    }),
  ],
});

/**
 * Where the task object is slow: before the create reaches it, or in answering it; or where it
 * fails (over RPC, say) after it stored the task.
 */
type Slowness = "arrives late" | "answers late" | "fails once stored";

/**
 * The real task objects, but each create is late by LATE_MS (past the bound), or fails;
 * `creates` holds every create as it finally settles, and the task id it was for; `abandons`
 * every abandon the server sent in the background, as it settles.
 */
function slowTasks(slowness: Slowness) {
  const creates: { taskId: string; settled: Promise<unknown> }[] = [];
  const abandons: Promise<unknown>[] = [];
  const namespace = {
    newUniqueId: () => env.MCP_TASKS.newUniqueId(),
    idFromString: (id: string) => env.MCP_TASKS.idFromString(id),
    get(id: DurableObjectId) {
      const real = env.MCP_TASKS.get(id);
      const wait = () => new Promise((r) => setTimeout(r, LATE_MS));
      return {
        create(task: { taskId: string }) {
          const settled =
            slowness === "arrives late"
              ? wait().then(() => real.create(task as never))
              : slowness === "answers late"
                ? real.create(task as never).then(async (json) => (await wait(), json))
                : real
                    .create(task as never)
                    .then(() => Promise.reject(new Error("connection lost")));
          creates.push({ taskId: task.taskId, settled: settled.catch(() => {}) });
          return settled;
        },
        read: (subject: string) => real.read(subject),
        answer: (subject: string, responses: Record<string, unknown>) =>
          real.answer(subject, responses),
        cancel: (subject: string) => real.cancel(subject),
        abandon(subject: string) {
          const abandoned = real.abandon(subject);
          abandons.push(abandoned.catch(() => {}));
          return abandoned;
        },
      };
    },
  } as unknown as DurableObjectNamespace<TaskObject>;
  const server = serve(definition, {
    durable: (e) => durableObjects({ tasks: namespace, limits: e.MCP_LIMITS }),
    coordinationTimeoutMs: BOUND_MS,
  });
  return { server, creates, abandons };
}

/** A stored task of alice's, working. */
function aliceTask(taskId: string) {
  const now = new Date().toISOString();
  return {
    taskId,
    server: "late-tasks",
    tool: "work",
    args: { label: "kept" },
    subject: "alice",
    capabilities: {},
    status: "working",
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 1_000,
    answers: {},
    pending: [],
  };
}

let nextAddress = 1;

const REFUSALS: Record<Slowness, string> = {
  "arrives late": "The task store did not answer in time (0.3 s). Try again shortly.",
  "answers late": "The task store did not answer in time (0.3 s). Try again shortly.",
  "fails once stored": "The task store is unavailable right now. Try again shortly.",
};

describe("a task whose create does not answer in time, or fails", () => {
  for (const slowness of ["arrives late", "answers late", "fails once stored"] as const) {
    it(`(the object ${slowness}) is refused with 503, then never exists, never runs on unknown to its caller, and holds no place in the caller's live-task cap`, async () => {
      const { server, creates, abandons } = slowTasks(slowness);
      const ip = `192.0.2.${nextAddress++}`;
      const headers = { "CF-Connecting-IP": ip };
      const held = () => env.MCP_LIMITS.getByName(`ip:${ip}`).held("task");
      const label = crypto.randomUUID();

      const refused = await server.send(
        mcpRequest(
          "tools/call",
          { name: "work", arguments: { label } },
          { server: "late-tasks", capabilities: TASKS, headers },
        ),
        "tools/call",
      );
      expect(refused.status).toBe(503);
      expect(refused.final?.error).toEqual({
        code: -32603,
        message: REFUSALS[slowness],
      });

      // The create, however late, has reached the object by now (the test waits for it), and
      // so has the abandon the server sent in the background: the object may see the two in
      // either order, and neither may leave a task.
      expect(creates).toHaveLength(1);
      const [{ taskId, settled }] = creates as [(typeof creates)[0]];
      await settled;
      await eventually(async () => abandons.length > 0 || undefined, {
        intervalMs: 20,
        what: "the server abandoning the task it could not create",
      });
      await Promise.all(abandons);
      expect(abandons).toHaveLength(1);
      const get = await server.send(
        mcpRequest(
          "tasks/get",
          { taskId },
          {
            server: "late-tasks",
            capabilities: TASKS,
            headers: { ...headers, "Mcp-Name": taskId },
          },
        ),
        "tasks/get",
      );
      expect(get.final?.error).toMatchObject({ code: -32602, data: { taskId } });
      // All the object keeps is the mark refusing a late create, which its alarm deletes.
      const object = env.MCP_TASKS.get(env.MCP_TASKS.idFromString(taskId));
      const kept = await runInDurableObject(object, async (_, state) => ({
        keys: [...(await state.storage.list()).keys()],
        alarm: await state.storage.getAlarm(),
      }));
      expect(kept.keys).toEqual(["abandoned"]);
      expect(kept.alarm).toBeGreaterThan(Date.now() + 59 * 60_000);
      expect(kept.alarm).toBeLessThanOrEqual(Date.now() + 60 * 60_000);
      expect(await held()).toBe(0);
      if (slowness === "arrives late") expect(started.has(label)).toBe(false);
      // A run that began before the create was refused (its object stored the task) sees its
      // signal abort; whether it began that soon is up to the alarm.
      await eventually(async () => !started.has(label) || aborted.has(label) || undefined, {
        intervalMs: 20,
        what: "the run that began before the create was refused seeing its signal abort",
      });
    });
  }

  it("an abandoned task's object forgets its mark once the mark's time is over, keeping nothing", async () => {
    const object = env.MCP_TASKS.get(env.MCP_TASKS.newUniqueId());
    await object.abandon("someone");
    await runInDurableObject(object, (_, state) => state.storage.put("abandoned", Date.now() - 1));
    expect(await runDurableObjectAlarm(object)).toBe(true);
    const kept = await runInDurableObject(object, async (_, state) => ({
      size: (await state.storage.list()).size,
      alarm: await state.storage.getAlarm(),
    }));
    expect(kept).toEqual({ size: 0, alarm: null });
  });

  it("a create that reaches an abandoned task's object stores nothing, and its caller is told why", async () => {
    const taskId = env.MCP_TASKS.newUniqueId().toString();
    const object = env.MCP_TASKS.get(env.MCP_TASKS.idFromString(taskId));
    await object.abandon("alice");
    // The object answers the refusal rather than throwing it across RPC (which workerd logs as
    // an uncaught exception); the store makes it the create's failure.
    expect(await object.create(aliceTask(taskId) as never)).toBeUndefined();
    await expect(taskStoreOver(env.MCP_TASKS).create(aliceTask(taskId) as never)).rejects.toThrow(
      "This task was abandoned by its caller before it was created.",
    );
    const kept = await runInDurableObject(object, async (_, state) => ({
      keys: [...(await state.storage.list()).keys()],
    }));
    expect(kept.keys).toEqual(["abandoned"]);
  });

  it("an abandon in another caller's name leaves the task as it was", async () => {
    const taskId = env.MCP_TASKS.newUniqueId().toString();
    const object = env.MCP_TASKS.get(env.MCP_TASKS.idFromString(taskId));
    await runInDurableObject(object, (_, state) => state.storage.put("task", aliceTask(taskId)));
    await object.abandon("mallory");
    const keys = () =>
      runInDurableObject(object, async (_, state) => [...(await state.storage.list()).keys()]);
    expect(await keys()).toEqual(["task"]);
    expect(JSON.parse((await object.read("alice")) ?? "{}")).toMatchObject({
      taskId,
      status: "working",
    });
    await object.abandon("alice");
    expect(await keys()).toEqual(["abandoned"]);
  });
});
