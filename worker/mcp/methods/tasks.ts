import * as z from "zod/mini";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { TaskRouter } from "../define/definition.ts";
import type { FeatureCall, FeatureRoute, ServerFeature } from "../define/features.ts";
import { requireCapabilities, TASKS_REQUIRED } from "../input/requirements.ts";
import { registerServer } from "../server/registry.ts";
import { parseParams } from "./method.ts";

const TaskParamsSchema = /* @__PURE__ */ z.lazy(() => z.object({ taskId: z.string() }));
const UpdateParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.extend(TaskParamsSchema._zod.innerType, {
    inputResponses: z.record(z.string(), z.unknown()),
  }),
);

/** One caller's tasks, as the tasks methods reach them. */
type TaskOps = {
  get(id: string): Promise<JsonObject>;
  update(id: string, responses: Record<string, unknown>): Promise<JsonObject>;
  cancel(id: string): Promise<JsonObject>;
};

/** `tasks/get`, `tasks/update` and `tasks/cancel` over where a request's tasks are. */
function taskRoutes(tasksOf: (call: FeatureCall) => TaskOps): Record<string, FeatureRoute> {
  const opened = (call: FeatureCall) => {
    const { request } = call.ctx;
    requireCapabilities(TASKS_REQUIRED, request.clientCapabilities, request.method);
    return tasksOf(call);
  };
  return {
    "tasks/get": {
      run: (call) => opened(call).get(parseParams(TaskParamsSchema, call).taskId),
    },
    "tasks/update": {
      run: (call) => {
        const { taskId, inputResponses } = parseParams(UpdateParamsSchema, call);
        return opened(call).update(taskId, inputResponses);
      },
    },
    "tasks/cancel": {
      run: (call) => opened(call).cancel(parseParams(TaskParamsSchema, call).taskId),
    },
  };
}

/**
 * Tasks (extension io.modelcontextprotocol/tasks) kept in the task store, the `tasks` port of
 * `durable` (`durableObjects({ tasks: env.MCP_TASKS })`): a server whose tools may run as tasks
 * names it in its definition, `tasks: storedTasks`. Offered, and advertised, when the port is
 * there and a tool may run as a task.
 */
export const storedTasks: ServerFeature = {
  routes: /* @__PURE__ */ taskRoutes((call) => {
    // Offered only with the task store, so every request that reaches here has its tasks.
    if (!call.tasks) throw new Error("The task store is not available to this request.");
    return call.tasks;
  }),
  offered(coordination, catalog) {
    return coordination.tasks !== undefined && catalog.taskTools;
  },
  // A task's Durable Object runs its tool: it finds the server by name (same modules loaded).
  mounted: registerServer,
};

/**
 * Tasks that run elsewhere, served by the server's own router (the hub routes them to its
 * upstreams): `tasks: routedTasks(router)`. Always offered.
 */
export function routedTasks(router: TaskRouter): ServerFeature {
  return {
    routes: taskRoutes(({ ctx }) => ({
      get: (id) => router.get(id, ctx),
      update: (id, responses) => router.update(id, responses, ctx),
      cancel: (id) => router.cancel(id, ctx),
    })),
    offered() {
      return true;
    },
  };
}
