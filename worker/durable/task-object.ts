import { DurableObject } from "cloudflare:workers";
import { TERMINAL_TASK_STATUSES } from "../../shared/protocol/tasks.ts";
import {
  publicTask,
  registeredServer,
  runTask,
  TaskStateSchema,
  type TaskState,
} from "../mcp/durable.ts";

/**
 * How long an abandoned task's object refuses a create of it: far longer than any create stays
 * in flight (each is bounded by COORDINATION_TIMEOUT_MS at its caller).
 */
const ABANDONED_KEEP_MS = 60 * 60_000;

/**
 * One task (extension io.modelcontextprotocol/tasks). Its state is stored durably before the
 * creating request is answered; an alarm runs the tool, so the work goes on after that request
 * ends; another alarm deletes everything when the task's time to live is over.
 */
export class TaskObject extends DurableObject {
  #running: AbortController | undefined;

  /**
   * Stores a new task and schedules its first run; answers with the task's public JSON, or with
   * undefined when its caller abandoned it before this create arrived (an answer, not a throw:
   * workerd logs an exception thrown across RPC as uncaught, and this refusal is expected). Its
   * times are this object's: the instance that asked may run on a clock of its own, and one
   * clock must say when the task expires.
   */
  async create(given: TaskState): Promise<string | undefined> {
    if ((await this.ctx.storage.get("abandoned")) !== undefined) return undefined;
    const now = new Date().toISOString();
    const state = { ...given, createdAt: now, lastUpdatedAt: now };
    await this.ctx.storage.put("task", state);
    await this.ctx.storage.setAlarm(Date.now());
    return JSON.stringify(publicTask(state));
  }

  /** The task's public JSON for its caller; undefined when unknown, expired or someone else's. */
  async read(subject: string): Promise<string | undefined> {
    const state = await this.#load(subject);
    return state && JSON.stringify(publicTask(state));
  }

  /** Records answers to outstanding input requests; the tool runs again once all are in. */
  async answer(subject: string, responses: Record<string, unknown>): Promise<boolean> {
    const state = await this.#load(subject);
    if (!state) return false;
    if (state.status !== "input_required") return true;
    const answers = { ...state.answers };
    for (const key of state.pending) if (key in responses) answers[key] = responses[key];
    const pending = state.pending.filter((key) => !(key in answers));
    if (pending.length > 0) {
      await this.#save({ ...state, answers, pending });
      return true;
    }
    await this.#save({
      ...state,
      answers,
      pending,
      status: "working",
      statusMessage: "Resuming with the answers",
    });
    await this.ctx.storage.setAlarm(Date.now());
    return true;
  }

  /** Cancels the task (cooperatively: the running tool sees its signal abort). Idempotent. */
  async cancel(subject: string): Promise<boolean> {
    const state = await this.#load(subject);
    if (!state) return false;
    if (TERMINAL_TASK_STATUSES.includes(state.status)) return true;
    this.#running?.abort(new Error("The task was cancelled."));
    await this.#save({ ...state, status: "cancelled", statusMessage: "Cancelled by the client" });
    return true;
  }

  /**
   * Forgets a task whose caller was refused its create (the create failed or did not answer
   * in time): stops its run, deletes it, gives its lease back, and keeps a mark that refuses
   * the create should it come in only now; the mark goes after ABANDONED_KEEP_MS.
   */
  async abandon(subject: string): Promise<void> {
    const state = await this.#stored();
    if (state && state.subject !== subject) return;
    this.#running?.abort(new Error("The task was abandoned by its caller."));
    const until = Date.now() + ABANDONED_KEEP_MS;
    await this.ctx.storage.deleteAll();
    await this.ctx.storage.put("abandoned", until);
    await this.ctx.storage.setAlarm(until);
    if (state) await this.#release(state);
  }

  override async alarm(): Promise<void> {
    const state = await this.#stored();
    if (!state) return this.#forgetAbandoned();
    const expiresAt = Date.parse(state.createdAt) + state.ttlMs;
    if (Date.now() >= expiresAt) {
      await this.ctx.storage.deleteAll();
      await this.#release(state);
      return;
    }
    if (state.status === "working") {
      this.#running = new AbortController();
      const outcome = await runTask(state, this.env, this.#running.signal, (p) =>
        this.ctx.waitUntil(p),
      );
      this.#running = undefined;
      const latest = await this.#stored();
      // Abandoned while the tool ran: the task is gone and its mark has its own alarm.
      if (!latest) return;
      // A cancel that came in while the tool ran wins over whatever the tool returned.
      if (latest.status === "working") await this.#save({ ...latest, ...outcome });
    }
    await this.ctx.storage.setAlarm(expiresAt);
  }

  /** Deletes an abandoned task's mark once its time is over. */
  async #forgetAbandoned(): Promise<void> {
    const until = await this.ctx.storage.get<number>("abandoned");
    if (until === undefined) return;
    if (Date.now() >= until) await this.ctx.storage.deleteAll();
    else await this.ctx.storage.setAlarm(until);
  }

  /** Gives the caller's live-task lease back (a lost release expires with the task anyway). */
  async #release(state: TaskState): Promise<void> {
    if (!state.lease) return;
    const limits = registeredServer(state.server)?.coordination?.(this.env).ports.limits;
    await limits?.release(state.lease.caller, "task", state.lease.id).catch((error: unknown) => {
      console.warn("A task could not give its caller's lease back", error);
    });
  }

  async #stored(): Promise<TaskState | undefined> {
    const raw = await this.ctx.storage.get("task");
    const parsed = TaskStateSchema.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  }

  async #load(subject: string): Promise<TaskState | undefined> {
    const state = await this.#stored();
    if (!state || state.subject !== subject) return undefined;
    return Date.now() < Date.parse(state.createdAt) + state.ttlMs ? state : undefined;
  }

  async #save(state: TaskState): Promise<void> {
    const saved = { ...state, lastUpdatedAt: new Date().toISOString() };
    await this.ctx.storage.put("task", saved);
    if (TERMINAL_TASK_STATUSES.includes(saved.status)) await this.#release(saved);
    const hub = registeredServer(saved.server)?.coordination?.(this.env).ports.listen;
    await hub?.publish(saved.server, {
      kind: "task",
      taskId: saved.taskId,
      subject: saved.subject,
      task: publicTask(saved),
    });
  }
}
