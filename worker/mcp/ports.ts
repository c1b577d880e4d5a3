import type { ClientCapabilities } from "../../shared/protocol/capabilities.ts";
import type { JsonObject, JsonRpcId } from "../../shared/protocol/messages.ts";
import type { ListenFilter } from "../../shared/protocol/params.ts";
import type { Authenticate, Caller } from "../auth/bearer.ts";
import type { Asking, ListenEvent, Notify } from "./context/context.ts";

/**
 * What the runtime needs from coordination that no single isolate can do, as interfaces: the
 * core calls them and never knows what implements them. `durableObjects({ ... })` from
 * `edgemcp/durable` fills them with Durable Objects; a test may fill them with fakes. Each is
 * optional: without one, the feature it carries is off (and refused clearly where asked for).
 */
export type Coordination = {
  /** Cancels a call on whichever instance runs it (a 2025 client's `notifications/cancelled`). */
  cancellation?: Cancellation;
  /** Asks 2025 clients for input, their answers arriving at whichever instance. */
  serverRequests?: ServerRequests;
  /** Keeps tasks (extension io.modelcontextprotocol/tasks) and runs them past their request. */
  tasks?: Tasks;
  /** Holds listen streams and delivers the changes published from any instance. */
  listen?: ListenHub;
  /** Counts what each caller uses (rate limits, open listen streams, live tasks). */
  limits?: Limits;
  /** Makes each MRTR `requestState` single-use, on whichever instance it comes back to. */
  rounds?: Rounds;
};

/** What one caller may use; 0 turns a limit off. */
export type LimitSettings = {
  /** Requests a minute (any method, notifications included). */
  requestsPerMinute: number;
  /** Calls of any one tool a minute. */
  toolCallsPerMinute: number;
  /** Listen streams open at once. */
  listenStreams: number;
  /** Tasks not yet completed, failed or cancelled. */
  liveTasks: number;
};

/** What an endpoint binds its coordination with: the Worker's variables and its options. */
export type CoordinationSettings = {
  env: Cloudflare.Env;
  /** How long one call on a port may take (default: `COORDINATION_TIMEOUT_MS`, else 10 s). */
  timeoutMs: number | undefined;
  /** What each caller may use (default: the limits' variables, then the defaults). */
  limits: Partial<LimitSettings> | undefined;
};

/**
 * Coordination as `edgemcp/durable` hands it to an endpoint (`durableObjects(...)`, or
 * `coordinate(ports)` for ports of one's own): the ports, and how an endpoint binds them. A
 * server without `durable` links none of the code behind it (the bounds on each call, the
 * per-caller limits).
 */
export interface DurableCoordination {
  /** The ports as given (what the Durable Objects themselves call). */
  readonly ports: Coordination;
  /** The ports for one endpoint: each call bounded in time, limits counted per caller. */
  bind(settings: CoordinationSettings): BoundCoordination;
}

/** Coordination bound to an endpoint. */
export type BoundCoordination = {
  ports: Coordination;
  /** Counts what each caller uses; undefined when no `limits` port is given. */
  limits: EndpointLimits | undefined;
};

/** An endpoint's per-caller limits, over the `limits` port. */
export interface EndpointLimits {
  /** One caller's limits; `key` names the caller (`callerIdentity`). */
  forCaller(key: string): CallerLimits;
  /** Authenticates a request, counting failed credentials by address (429 past a rate). */
  authenticate(
    authenticate: Authenticate,
    request: Request,
    env: Cloudflare.Env,
    inProcess: boolean,
  ): Promise<Caller | undefined>;
}

/** One caller's limits at an endpoint; every check fails closed (429, or 503 from the port). */
export interface CallerLimits {
  /** Counts one request (and one call of `tool`); 429 with `Retry-After` past a rate. */
  admit(server: string, tool: string | undefined): Promise<void>;
  /** Opens a listen stream within the caller's cap, held until it ends or `gone` aborts. */
  holdStream(
    maxMs: number,
    waitUntil: (promise: Promise<unknown>) => void,
    gone: AbortSignal,
    open: () => Promise<Response>,
  ): Promise<Response>;
  /** The caller's tasks, each holding a lease until it ends or expires. */
  tasks(tasks: CallerTasks): CallerTasks;
}

/** Single-use markers: the first claim of a name succeeds, every later one fails. */
export interface Rounds {
  /** True the first time `nonce` is claimed (kept for `ttlMs`, longer than what it guards). */
  claim(nonce: string, ttlMs: number): Promise<boolean>;
}

/** Cancellation across instances, keyed by the caller, its session and the call's request id. */
export interface Cancellation {
  /** Aborts the call when its cancellation is posted; returns `stop`, for when the call ends. */
  watch(caller: string, id: JsonRpcId, abort: (reason: string) => void): () => void;
  /** Records a cancellation for a call that may run on any instance. */
  post(caller: string, id: JsonRpcId, reason: string | undefined): Promise<void>;
}

/** Ids of requests this server sends; answers carrying them are routed back to the waiting call. */
export const SERVER_REQUEST_PREFIX = "edgemcp:";

/**
 * Input from a 2025 client: requests sent on the call's stream, answered by the client in a
 * POST of their own, which may reach any instance.
 */
export interface ServerRequests {
  /** `ctx.input` and `ctx.relay` for a call whose requests go out through `send`. */
  asking(send: Notify, signal: AbortSignal): Asking;
  /** Hands a client's answer (its JSON-RPC response, as sent) to the call waiting for it. */
  answer(id: string, response: string): Promise<void>;
}

/** Tasks, reached per caller: each caller sees only its own. */
export interface Tasks {
  /** `waitUntil` keeps work the tasks start in the background alive past the response. */
  forCaller(
    server: string,
    subject: string,
    waitUntil: (promise: Promise<unknown>) => void,
  ): CallerTasks;
}

/** A task a tool call becomes: the tool, its arguments, and how long the task lives. */
export type TaskStart = {
  tool: string;
  args: JsonObject;
  capabilities: ClientCapabilities;
  ttlMs?: number;
  pollIntervalMs?: number;
  /** The caller's lease on a live task, which the task gives back when it ends. */
  lease?: TaskLease;
  /** The id to create the task under, from `newTaskId` (absent: the store picks one). */
  taskId?: string;
};

/** Which caller's lease a task holds (`Limits.release(caller, "task", id)`). */
export type TaskLease = { caller: string; id: string };

/** One caller's tasks of one server, answered as the tasks methods' results. */
export interface CallerTasks {
  /** Creates the task and answers with its `resultType: "task"` result. */
  create(start: TaskStart): Promise<JsonObject>;
  get(taskId: string): Promise<JsonObject>;
  update(taskId: string, responses: Record<string, unknown>): Promise<JsonObject>;
  cancel(taskId: string): Promise<JsonObject>;
  /**
   * An id for a task not created yet, picked before `create` so that a create whose answer
   * never reached its caller can be forgotten. Without it (and `abandon`), a create that fails
   * or does not answer in time may leave a task its caller never heard of.
   */
  newTaskId?(): string;
  /**
   * Forgets the task created (or being created) under `taskId`, whose create its caller was
   * refused: deleted if the create came in, refused if it comes in later.
   */
  abandon?(taskId: string): Promise<void>;
}

/** What one listen stream asks for, and how long it may stay open. */
export type ListenStream = {
  id: JsonRpcId;
  /** The caller's subject ("" when anonymous): a task's notifications reach only its own. */
  subject: string;
  filter: ListenFilter;
  keepAliveMs: number;
  /** Bytes the stream may hold unread before it is closed (the client stopped reading). */
  maxBufferedBytes: number;
  maxMs: number;
};

/** Listen streams that hear changes published on any instance. */
export interface ListenHub {
  /** Opens a stream of `server` (an SSE response); closing it ends the subscription. */
  open(server: string, stream: ListenStream): Promise<Response>;
  publish(server: string, event: ListenEvent): Promise<void>;
}

/** A rate one caller may not exceed: `limit` units per `windowMs`, in bursts of up to `limit`. */
export type Budget = {
  key: string;
  limit: number;
  windowMs: number;
  /** Only checked: refused when empty, never taken from. */
  peek?: boolean;
};

/** One of at most `max` things of a `kind` a caller holds at once, until released or `ttlMs`. */
export type Lease = { kind: string; id: string; max: number; ttlMs: number };

/** What each caller (a subject, or an anonymous caller's address) uses, across instances. */
export interface Limits {
  /**
   * Takes one unit from every budget or from none: undefined when taken, otherwise the
   * exhausted budget and how long until it has a unit again.
   */
  take(caller: string, budgets: Budget[]): Promise<{ key: string; waitMs: number } | undefined>;
  /** Holds a lease; false when the caller already holds `max` of that kind. */
  acquire(caller: string, lease: Lease): Promise<boolean>;
  /** Gives a lease back (the stream closed, the task ended); unknown leases are ignored. */
  release(caller: string, kind: string, id: string): Promise<void>;
}
