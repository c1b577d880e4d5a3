import * as z from "zod/mini";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import { parseParams, type Call, type MethodHandler } from "./method.ts";
import { requireCapabilities, TASKS_REQUIRED } from "../input/requirements.ts";

const TaskParamsSchema = /* @__PURE__ */ z.lazy(() => z.object({ taskId: z.string() }));
const UpdateParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.extend(TaskParamsSchema._zod.innerType, {
    inputResponses: z.record(z.string(), z.unknown()),
  }),
);

/** The tasks of this request's caller: a server's own router (the hub's), or the task store. */
function tasks(call: Call): {
  get(id: string): Promise<JsonObject>;
  update(id: string, responses: Record<string, unknown>): Promise<JsonObject>;
  cancel(id: string): Promise<JsonObject>;
} {
  requireCapabilities(TASKS_REQUIRED, call.ctx.request.clientCapabilities, call.ctx.request.method);
  const router = call.catalog.definition.tasks;
  if (router) {
    return {
      get: (id) => router.get(id, call.ctx),
      update: (id, responses) => router.update(id, responses, call.ctx),
      cancel: (id) => router.cancel(id, call.ctx),
    };
  }
  // tasks/* resolve only when the server advertises extensions, and tasks is the only one it
  // advertises: without a router that takes the task store, so the request has its service.
  return call.tasks!;
}

export const getTask: MethodHandler = (call) =>
  tasks(call).get(parseParams(TaskParamsSchema, call).taskId);

export const updateTask: MethodHandler = (call) => {
  const { taskId, inputResponses } = parseParams(UpdateParamsSchema, call);
  return tasks(call).update(taskId, inputResponses);
};

export const cancelTask: MethodHandler = (call) =>
  tasks(call).cancel(parseParams(TaskParamsSchema, call).taskId);
