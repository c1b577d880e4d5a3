import type { HeaderParam } from "../../protocol/header-declarations.ts";
import type { JsonObject, JsonRpcId } from "../../protocol/messages.ts";
import type { LogLevel } from "../../protocol/meta.ts";
import type { ListToolsResult } from "../../protocol/results.ts";
import type { Era } from "../../protocol/versions.ts";
import type { Connection } from "../connection.ts";
import type { ServerDescription } from "../description.ts";
import type { ErrorContext } from "../errors.ts";
import type { Reply } from "../options.ts";
import type { ServerRequest } from "../read-reply.ts";
import type { BackgroundStream } from "../background/background.ts";
import type { BackgroundSink } from "../background/types.ts";
import type { TaskProtocol } from "./task-protocol.ts";

/** The optional `_meta` members of one request. */
export type EnvelopeExtras = {
  progressToken?: JsonRpcId;
  logLevel?: LogLevel;
  meta?: Record<string, unknown>;
};

/** What a request's routing headers mirror: its method, its name or URI, tool arguments. */
export type Routing = {
  /** Absent for notifications and responses, which carry no `Mcp-Method`. */
  method?: string;
  /** The `Mcp-Name` value, already encoded. */
  name?: string;
  /** `Mcp-Param-*` values by header suffix, already encoded. */
  params?: Readonly<Record<string, string>>;
};

/** What a user interface says and offers for an era, so it never compares era names. */
export type EraTraits = {
  /** A short name for the era: `2026 stateless` or `2025 handshake`. */
  readonly label: string;
  /** Whether the connection began with `initialize` (and may hold a session). */
  readonly handshake: boolean;
  /** Whether listen streams can be opened (2026-07-28 only). */
  readonly listen: boolean;
};

/**
 * One generation of the protocol as the client speaks it: everything that differs between a
 * 2026-07-28 connection and one to a 2025 server that began with `initialize`. Negotiation
 * picks the era once (`negotiate`); `modern.ts` and `legacy.ts` implement it.
 */
export interface ClientEra {
  readonly name: Era;
  readonly traits: EraTraits;
  /** A request's params with its `_meta`. */
  envelope(conn: Connection, params: JsonObject, extras: EnvelopeExtras): JsonObject;
  /** Headers for one POST: the caller's, then the transport's (which win). */
  headers(conn: Connection, routing: Routing): Headers;
  /** Answers a request the server sent on a response stream, where the era has them. */
  readonly serverRequest?: (
    conn: Connection,
    request: ServerRequest,
    signal: AbortSignal,
  ) => Promise<void>;
  /**
   * Opens a reply's dropped SSE stream again after `lastEventId`, where the era resumes streams
   * (2025 servers may close one before its response and expect a GET with `Last-Event-ID`).
   */
  readonly reopen?: (
    conn: Connection,
    lastEventId: string,
    signal: AbortSignal | undefined,
    context: ErrorContext,
  ) => Promise<Response>;
  /** Follows up an aborted request (closing its stream is the 2026 cancellation). */
  aborted(conn: Connection, id: JsonRpcId, method: string): Promise<void>;
  /** Asks the server for log messages at `level` ahead of a request, where that takes a request. */
  setLogLevel(
    conn: Connection,
    level: LogLevel,
    serverLogs: boolean,
    signal: AbortSignal | undefined,
  ): Promise<void>;
  /** Refuses a feature 2025 servers do not have (tasks, listen streams). */
  require2026(message: string, context: ErrorContext): void;
  /** `server/discover`: fetched (through the cache), or what the handshake said. */
  discover(
    fetch: () => Promise<Reply<ServerDescription>>,
    known: ServerDescription,
  ): Promise<Reply<ServerDescription>>;
  /** A tool call's `Mcp-Param-*` values, from the tool's declarations (`declared` finds them). */
  paramHeaders(
    declared: () => Promise<readonly HeaderParam[] | undefined>,
    args: Record<string, unknown>,
  ): Promise<Record<string, string>>;
  /** A tool list as this era uses it: `record` keeps the tools whose headers it can mirror. */
  listedTools(
    reply: Reply<ListToolsResult>,
    record: (reply: Reply<ListToolsResult>) => Reply<ListToolsResult>,
  ): Reply<ListToolsResult>;
  /** Whether a failed call means the tool list was stale (a 2026 header mismatch). */
  staleTools(error: unknown): boolean;
  /** How a call becomes a task, and how the task is polled, answered and read. */
  readonly tasks: TaskProtocol;
  /** Opens the session's background stream, where the era has one (2025: the GET stream). */
  readonly background?: (conn: Connection, sink: BackgroundSink) => BackgroundStream;
  /** Refuses a feature 2026 servers do not have (`resources/subscribe`). */
  require2025(message: string, context: ErrorContext): void;
}
