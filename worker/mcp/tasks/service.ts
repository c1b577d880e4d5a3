import { isJsonObject } from "../../../shared/jsonrpc.ts";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { CallerTasks, TaskStart } from "../ports.ts";
import type { TaskState } from "./state.ts";

const DEFAULT_TTL_MS = 60 * 60_000;
const DEFAULT_POLL_MS = 1_000;

/** Where tasks are kept; every read and change is for the task's own subject only. */
export interface TaskStore {
  /** An id no task has yet, for `create`. */
  newId(): string;
  /** Stores a task under its id (from `newId`) and starts it; resolves with its public JSON. */
  create(task: TaskState): Promise<string>;
  /** The task's public JSON; undefined when it is unknown, expired or another caller's. */
  read(taskId: string, subject: string): Promise<string | undefined>;
  /** Records answers to the task's input requests; false when it is unknown. */
  answer(taskId: string, subject: string, responses: Record<string, unknown>): Promise<boolean>;
  /** Cancels the task; false when it is unknown. */
  cancel(taskId: string, subject: string): Promise<boolean>;
  /** Deletes the task and refuses a create of it still to come (see `CallerTasks.abandon`). */
  abandon(taskId: string, subject: string): Promise<void>;
}

/**
 * One caller's tasks of one server over a task store: the state a task starts with, its
 * public JSON as the tasks methods answer it, and -32602 for a task the caller cannot see.
 */
export class TaskService implements CallerTasks {
  constructor(
    private readonly store: TaskStore,
    private readonly server: string,
    private readonly subject: string,
  ) {}

  /** Creates the task durably, then answers with its flat `resultType: "task"` shape. */
  async create(start: TaskStart): Promise<JsonObject> {
    const now = new Date().toISOString();
    const created = await this.store.create({
      taskId: start.taskId ?? this.store.newId(),
      server: this.server,
      tool: start.tool,
      args: start.args,
      subject: this.subject,
      capabilities: start.capabilities,
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: start.ttlMs ?? DEFAULT_TTL_MS,
      pollIntervalMs: start.pollIntervalMs ?? DEFAULT_POLL_MS,
      answers: {},
      pending: [],
      ...(start.lease ? { lease: start.lease } : {}),
    });
    return { resultType: "task", ...taskJson(created) };
  }

  async get(taskId: string): Promise<JsonObject> {
    const task = await this.store.read(taskId, this.subject);
    if (task === undefined) throw unknownTask(taskId);
    return { resultType: "complete", ...taskJson(task) };
  }

  async update(taskId: string, responses: Record<string, unknown>): Promise<JsonObject> {
    if (!(await this.store.answer(taskId, this.subject, responses))) throw unknownTask(taskId);
    return { resultType: "complete" };
  }

  async cancel(taskId: string): Promise<JsonObject> {
    if (!(await this.store.cancel(taskId, this.subject))) throw unknownTask(taskId);
    return { resultType: "complete" };
  }

  newTaskId(): string {
    return this.store.newId();
  }

  abandon(taskId: string): Promise<void> {
    return this.store.abandon(taskId, this.subject);
  }
}

/** A task's public JSON, as the store serialized it. */
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
