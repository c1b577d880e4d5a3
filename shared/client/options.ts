import type { ClientCapabilities } from "../protocol/capabilities.ts";
import type { CreateMessageParams, ElicitParams } from "../protocol/input-requests.ts";
import type { CreateMessageResult, ElicitResult, ListRootsResult } from "../protocol/input.ts";
import type { LogLevel } from "../protocol/meta.ts";
import type { LogMessageParams, Progress } from "../protocol/notifications.ts";
import type { Implementation } from "../protocol/primitives.ts";
import type { JsonObject } from "../protocol/messages.ts";
import type { CacheScope } from "../protocol/results.ts";
import type { Task } from "../protocol/tasks.ts";
import type { BackgroundState, ServerNotification } from "./background/types.ts";

/** The fetch the client uses: the global one, a Worker service binding's, or a test's. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * Hands one JSON-RPC request to an endpoint in the same process, with the headers a POST would
 * carry, skipping HTTP: the reply is a response, or a whole 2xx reply as a value (`InProcessReply`).
 */
export type SendLike = (
  message: JsonObject,
  headers: Headers,
  signal: AbortSignal,
) => Promise<Response | InProcessReply>;

/** A whole reply given as a value in this process: the JSON-RPC message (an object, or its text). */
export type InProcessReply = {
  status: number;
  headers?: Readonly<Record<string, string>> | undefined;
  message: unknown;
};

/** Which input request a handler is answering, and the signal of the call that needs it. */
export type InputContext = { key: string; signal: AbortSignal | undefined };

/**
 * Answers to what servers ask of the client: in `input_required` results (MRTR), in
 * input-required tasks, and in legacy server-to-client requests. Each handler needs the
 * matching client capability, and each declared capability needs its handler.
 */
export type InputHandlers = {
  elicitation?: (params: ElicitParams, context: InputContext) => Promise<ElicitResult>;
  sampling?: (params: CreateMessageParams, context: InputContext) => Promise<CreateMessageResult>;
  roots?: (context: InputContext) => Promise<ListRootsResult>;
};

/** What went over the wire, for tools that show it (the playground's wire view). */
export type WireEvent =
  | { type: "request"; url: string; headers: Headers; body: unknown }
  | { type: "response"; url: string; status: number; headers: Headers }
  | { type: "message"; url: string; message: unknown }
  | { type: "cache"; method: string; key: string };

/** How `connect` sets up a client. */
export type ClientOptions = {
  /** Sent on every request (e.g. `Authorization`); change them later with `setHeaders`. */
  headers?: Record<string, string>;
  fetch?: FetchLike;
  /**
   * Takes requests in place of `fetch` for an endpoint in the same process (a hub's servers in
   * its own Worker); listen streams, notifications and anything else still go through `fetch`.
   */
  send?: SendLike;
  clientInfo?: Implementation;
  /** Declared capabilities; derived from `handlers` when absent, checked against them when given. */
  capabilities?: ClientCapabilities;
  handlers?: InputHandlers;
  /**
   * How the era is found: `probe` with `server/discover` and fall back to `initialize` (the
   * default), or `initialize` straight away, for servers known to speak only 2025.
   */
  handshake?: "probe" | "initialize";
  /** 2026-era versions the client accepts, preferred first (default: 2026-07-28). */
  versions?: readonly string[];
  /** Input rounds one call may take before failing (default 8). */
  maxInputRounds?: number;
  /** Pages a list walk may fetch before failing (default 64). */
  maxPages?: number;
  /**
   * The most one reply may weigh, in bytes: a JSON reply's body, or one event of an SSE reply
   * or stream (default 16 MiB). Past it the rest is not read and the request fails.
   */
  maxReplyBytes?: number;
  /** The log level to request on every call that does not set its own. */
  logLevel?: LogLevel;
  onWire?: (event: WireEvent) => void;
  /** Reports tools dropped from lists for invalid `x-mcp-header` declarations. */
  onWarning?: (message: string) => void;
  /** Aborts connecting. */
  signal?: AbortSignal;
  /**
   * Whether to open a 2025 session's background stream (its GET) after `initialize`, where the
   * server's requests and notifications outside any call arrive (default true).
   */
  backgroundStream?: boolean;
  /** Notifications from the background stream: logs, list changes, resource updates, tasks. */
  onNotification?: (notification: ServerNotification) => void;
  /** Each change of the background stream's state (open, reconnecting, closed...). */
  onBackgroundState?: (state: BackgroundState) => void;
};

/** Per-request options every method takes. */
export type RequestOptions = {
  signal?: AbortSignal;
  /** Asks for progress (a `progressToken`) and receives each notification. */
  onProgress?: (progress: Progress) => void;
  /** Receives the server's log messages for this request. */
  onLog?: (message: LogMessageParams) => void;
  /** Asks for log messages at or above this level (2026: `_meta` logLevel; 2025: setLevel). */
  logLevel?: LogLevel;
  /** Extra `_meta` members (e.g. trace context); the protocol's own keys take precedence. */
  meta?: Record<string, unknown>;
};

/** `use` reads and fills the cache, `refresh` skips reading it, `bypass` leaves it alone. */
export type CacheMode = "use" | "refresh" | "bypass";

/** Options of methods whose results may come from the cache. */
export type CachedRequestOptions = RequestOptions & { cache?: CacheMode };

/** Options of the list methods: a page, or a walk over every page. */
export type ListOptions = CachedRequestOptions & {
  /** Returns only the page at this cursor (with its `nextCursor`). */
  cursor?: string;
  /** Returns only the first page (with its `nextCursor`). */
  onePage?: boolean;
  /** Overrides the client's page cap for this walk. */
  maxPages?: number;
};

/** Options of methods that may need input rounds (MRTR). */
export type InputRoundOptions = RequestOptions & { maxInputRounds?: number };

/** Options of `callTool`. */
export type CallToolOptions = InputRoundOptions & {
  /** Resolve with the task instead of waiting for it when the server answers with one. */
  returnTask?: boolean;
  /**
   * Whether to ask a 2025-11-25 server to run the call as a task (its `task` param). By default
   * a tool whose `execution.taskSupport` is `required` runs as one and others do not; `true`
   * for a tool that forbids tasks, or `false` for one that requires them, fails before sending.
   * 2026 servers decide themselves, so this changes nothing there.
   */
  asTask?: boolean;
  /** How long a 2025-11-25 server should keep the task, in milliseconds (its `task.ttl`). */
  taskTtlMs?: number;
  /** Sees every state of the task the call became, as it is polled, first to last. */
  onStatus?: (task: Task) => void;
};

/** Where a result came from. */
export type Source = "network" | "cache";

/** A result and where it came from, so a UI can show cache hits. */
export type Reply<T> = {
  result: T;
  source: Source;
  /** Until when (ms since the epoch) a cached copy is fresh; absent when it was not cached. */
  freshUntil?: number;
  cacheScope?: CacheScope;
};
