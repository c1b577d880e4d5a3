import type { ClientCapabilities } from "../../../shared/protocol/capabilities.ts";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";

import type { TaskObject } from "../../durable/task-object.ts";
import type { CompiledTool } from "../catalog.ts";
import type { TaskState } from "./task-state.ts";

const DEFAULT_TTL_MS = 60 * 60_000;
const DEFAULT_POLL_MS = 1_000;

/** Creates and reaches one caller's tasks of one server. */
export class TaskService {
  constructor(
    private readonly namespace: DurableObjectNamespace<TaskObject>,
    private readonly server: string,
    private readonly subject: string,
  ) {}

  /** Creates the task durably, then answers with its flat `resultType: "task"` shape. */
  async create(
    tool: CompiledTool,
    args: JsonObject,
    capabilities: ClientCapabilities,
  ): Promise<JsonObject> {
    const id = this.namespace.newUniqueId();
    const now = new Date().toISOString();
    const state: TaskState = {
      taskId: id.toString(),
      server: this.server,
      tool: tool.wire.name,
      args,
      subject: this.subject,
      capabilities,
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: tool.definition.task?.ttlMs ?? DEFAULT_TTL_MS,
      pollIntervalMs: tool.definition.task?.pollIntervalMs ?? DEFAULT_POLL_MS,
      answers: {},
      pending: [],
    };
    return { resultType: "task", ...taskJson(await this.namespace.get(id).create(state)) };
  }

  async get(taskId: string): Promise<JsonObject> {
    const task = await this.#stub(taskId).read(this.subject);
    if (task === undefined) throw unknownTask(taskId);
    return { resultType: "complete", ...taskJson(task) };
  }

  async update(taskId: string, responses: Record<string, unknown>): Promise<JsonObject> {
    if (!(await this.#stub(taskId).answer(this.subject, responses))) throw unknownTask(taskId);
    return { resultType: "complete" };
  }

  async cancel(taskId: string): Promise<JsonObject> {
    if (!(await this.#stub(taskId).cancel(this.subject))) throw unknownTask(taskId);
    return { resultType: "complete" };
  }

  #stub(taskId: string): DurableObjectStub<TaskObject> {
    let id: DurableObjectId;
    try {
      id = this.namespace.idFromString(taskId);
    } catch {
      throw unknownTask(taskId);
    }
    return this.namespace.get(id);
  }
}

/** A task's public JSON, as the task object serialized it. */
function taskJson(text: string): JsonObject {
  const value: unknown = JSON.parse(text);
  if (!isJsonObject(value))
    throw new RpcError(
      ErrorCode.InternalError,
      "The task object answered with something that is not a task.",
    );
  return value;
}

function unknownTask(taskId: string): RpcError {
  return new RpcError(
    ErrorCode.InvalidParams,
    `Unknown task "${taskId}": it never existed, expired, or belongs to another caller.`,
    { taskId },
  );
}
