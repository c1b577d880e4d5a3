import { readVar } from "../env-vars.ts";
import { HttpError } from "../http/http-error.ts";
import type {
  Budget,
  CallerLimits,
  CallerTasks,
  LimitSettings,
  Limits,
  TaskStart,
} from "../mcp/ports.ts";

export const DEFAULT_LIMITS: LimitSettings = {
  requestsPerMinute: 600,
  toolCallsPerMinute: 120,
  listenStreams: 10,
  liveTasks: 20,
};

/**
 * What each caller may use at an endpoint: from its options, then the Worker's variables
 * (`RATE_LIMIT_REQUESTS`, `RATE_LIMIT_TOOL_CALLS`, `MAX_LISTEN_STREAMS`, `MAX_LIVE_TASKS`), then
 * the defaults; 0 turns one off.
 */
export function limitSettings(
  env: Cloudflare.Env,
  given: Partial<LimitSettings> = {},
): LimitSettings {
  const variable = (name: string, fallback: number) => {
    const text = readVar(env, name)?.trim();
    const value = text ? Number(text) : NaN;
    return Number.isInteger(value) && value >= 0 ? value : fallback;
  };
  return {
    requestsPerMinute:
      given.requestsPerMinute ?? variable("RATE_LIMIT_REQUESTS", DEFAULT_LIMITS.requestsPerMinute),
    toolCallsPerMinute:
      given.toolCallsPerMinute ??
      variable("RATE_LIMIT_TOOL_CALLS", DEFAULT_LIMITS.toolCallsPerMinute),
    listenStreams:
      given.listenStreams ?? variable("MAX_LISTEN_STREAMS", DEFAULT_LIMITS.listenStreams),
    liveTasks: given.liveTasks ?? variable("MAX_LIVE_TASKS", DEFAULT_LIMITS.liveTasks),
  };
}

const MINUTE = 60_000;
/** How long a listen stream's lease outlives the stream's own time limit, at most. */
const LEASE_SLACK_MS = 60_000;
/** A task's time to live when the tool gives none (the task service's default). */
const TASK_TTL_MS = 60 * 60_000;

/** A caller over a limit: 429, with `Retry-After` when waiting helps. */
export class TooManyRequests extends HttpError {
  constructor(message: string, retryAfterMs?: number) {
    const headers: Record<string, string> = {};
    if (retryAfterMs !== undefined)
      headers["Retry-After"] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    super(429, message, headers);
  }
}

/**
 * One caller's limits on one endpoint: `key` names the caller (`callerIdentity`), `limits` counts
 * across instances. Every check fails closed: a caller over a limit is refused before its work
 * starts.
 */
export class CountedCaller implements CallerLimits {
  constructor(
    private readonly limits: Limits,
    private readonly key: string,
    private readonly settings: LimitSettings,
  ) {}

  /** Counts one request (and one call of `tool`); 429 with `Retry-After` past a rate. */
  async admit(server: string, tool: string | undefined): Promise<void> {
    const { requestsPerMinute, toolCallsPerMinute } = this.settings;
    const budgets: Budget[] = [];
    if (requestsPerMinute > 0)
      budgets.push({ key: "requests", limit: requestsPerMinute, windowMs: MINUTE });
    if (tool !== undefined && toolCallsPerMinute > 0)
      budgets.push({
        key: `tool:${server}/${tool.slice(0, 256)}`,
        limit: toolCallsPerMinute,
        windowMs: MINUTE,
      });
    if (budgets.length === 0) return;
    const refused = await this.limits.take(this.key, budgets);
    if (!refused) return;
    const seconds = Math.max(1, Math.ceil(refused.waitMs / 1000));
    const what =
      refused.key === "requests"
        ? `Too many requests from this caller (at most ${requestsPerMinute} a minute)`
        : `Too many calls of tool "${tool}" from this caller (at most ${toolCallsPerMinute} a minute)`;
    throw new TooManyRequests(`${what}. Retry after ${seconds} s.`, refused.waitMs);
  }

  /**
   * Opens a listen stream within the caller's cap, held until the stream ends (closed by
   * either side) or `gone` aborts (the client went away: workerd would notice the dead
   * connection only at a later write); 429 when the caller already has as many open as allowed.
   */
  async holdStream(
    maxMs: number,
    waitUntil: (promise: Promise<unknown>) => void,
    gone: AbortSignal,
    open: () => Promise<Response>,
  ): Promise<Response> {
    const max = this.settings.listenStreams;
    if (max <= 0) return open();
    const id = crypto.randomUUID();
    const lease = { kind: "listen", id, max, ttlMs: maxMs + LEASE_SLACK_MS };
    if (!(await this.limits.acquire(this.key, lease)))
      throw new TooManyRequests(
        `Too many listen streams: this caller already has ${max} open. Close one before opening another.`,
      );
    const release = () => waitUntil(this.limits.release(this.key, "listen", id).catch(() => {}));
    let response: Response;
    try {
      response = await open();
    } catch (error) {
      release();
      throw error;
    }
    if (!response.body) {
      release();
      return response;
    }
    return new Response(releasing(response.body, release, gone), response);
  }

  /** The caller's tasks, each task holding a lease until it ends or expires. */
  tasks(tasks: CallerTasks): CallerTasks {
    const max = this.settings.liveTasks;
    if (max <= 0) return tasks;
    const { limits, key } = this;
    return {
      async create(start: TaskStart) {
        const id = crypto.randomUUID();
        const lease = { kind: "task", id, max, ttlMs: start.ttlMs ?? TASK_TTL_MS };
        if (!(await limits.acquire(key, lease)))
          throw new TooManyRequests(
            `Too many live tasks: this caller already has ${max} not yet finished. Wait for one to end, or cancel one.`,
          );
        try {
          return await tasks.create({ ...start, lease: { caller: key, id } });
        } catch (error) {
          await limits.release(key, "task", id).catch(() => {});
          throw error;
        }
      },
      get: (taskId) => tasks.get(taskId),
      update: (taskId, responses) => tasks.update(taskId, responses),
      cancel: (taskId) => tasks.cancel(taskId),
    };
  }
}

/**
 * `body`, calling `release` once when it ends, fails, its reader cancels it or `gone` aborts
 * (then `body` is cancelled too, so that its source stops).
 */
function releasing(
  body: ReadableStream<Uint8Array>,
  release: () => void,
  gone: AbortSignal,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let released = false;
  const once = () => {
    if (!released) {
      released = true;
      gone.removeEventListener("abort", vanished);
      release();
    }
  };
  function vanished() {
    once();
    reader.cancel(gone.reason).catch(() => {});
  }
  if (gone.aborted) vanished();
  else gone.addEventListener("abort", vanished);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            once();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          once();
          controller.error(error);
        }
      },
      async cancel(reason) {
        once();
        await reader.cancel(reason).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
}
