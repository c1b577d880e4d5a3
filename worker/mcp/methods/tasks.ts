import * as z from "zod";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import { parseParams, type Call, type MethodHandler } from "../call.ts";
import { requireCapabilities } from "../required-capabilities.ts";
import { TASKS_EXTENSION } from "../tasks-extension.ts";
import type { TaskService } from "../tasks/service.ts";

const TaskParamsSchema = z.object({ taskId: z.string() });
const UpdateParamsSchema = TaskParamsSchema.extend({
  inputResponses: z.record(z.string(), z.unknown()),
});

function service(call: Call): TaskService {
  requireCapabilities(
    { extensions: { [TASKS_EXTENSION]: {} } },
    call.ctx.request.clientCapabilities,
    `${call.ctx.request.method}`,
  );
  if (!call.tasks) throw new RpcError(ErrorCode.MethodNotFound, "This server runs no tasks.");
  return call.tasks;
}

export const getTask: MethodHandler = (call) =>
  service(call).get(parseParams(TaskParamsSchema, call).taskId);

export const updateTask: MethodHandler = (call) => {
  const { taskId, inputResponses } = parseParams(UpdateParamsSchema, call);
  return service(call).update(taskId, inputResponses);
};

export const cancelTask: MethodHandler = (call) =>
  service(call).cancel(parseParams(TaskParamsSchema, call).taskId);
