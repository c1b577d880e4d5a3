import {
  connect,
  McpError,
  type FetchLike,
  type InputHandlers,
  type McpClient,
  type ServerNotification,
} from "../shared/client/index.ts";
import { AuthError } from "../shared/client/auth/index.ts";
import { isJsonObject } from "../shared/jsonrpc.ts";
import { authFailureText } from "./auth/failure-text.ts";
import { LogMessageParamsSchema } from "../shared/protocol/notifications.ts";
import { println, type Io } from "./io.ts";
import type { CommandLine } from "./options.ts";
import { logLine } from "./render.ts";
import { packageVersion } from "./version.ts";

/** What connecting takes from the command line. */
type Connecting = Pick<CommandLine, "url" | "given" | "maxReplyBytes" | "timeoutMs">;

/** A request's own `--timeout` signal, when one was given. */
export function requestTimeout(timeoutMs: number | undefined): { signal?: AbortSignal } {
  return timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) };
}

/**
 * Connects the shared client with the command's headers; warnings go to stderr. A 2025
 * session's background stream is opened only for commands that wait on the server (a call may
 * be asked for roots or input on it).
 */
function connectClient(
  { url, given, maxReplyBytes, timeoutMs }: Connecting,
  io: Io,
  fetch?: FetchLike,
  handlers?: InputHandlers,
  background = false,
): Promise<McpClient> {
  return connect(url, {
    backgroundStream: background,
    headers: given.headers,
    ...(maxReplyBytes === undefined ? {} : { maxReplyBytes }),
    ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
    clientInfo: { name: "edgemcp-cli", version: packageVersion() },
    ...(fetch ? { fetch } : {}),
    ...(handlers ? { handlers } : {}),
    onWarning: (message) => println(io.stderr, `warning: ${message}`),
    // A 2025 server may log outside the call's stream, on the session's own (the SDK's do).
    ...(background ? { onNotification: (notification) => printLog(notification, io) } : {}),
  });
}

/** A log message from the background stream, on stderr; other notifications are not shown. */
function printLog({ method, params }: ServerNotification, io: Io): void {
  if (method !== "notifications/message") return;
  const parsed = LogMessageParamsSchema.safeParse(params);
  if (parsed.success) println(io.stderr, logLine(parsed.data));
}

/** Connects, or reports why it could not on stderr and returns undefined. */
export async function connectOrReport(
  line: Connecting,
  io: Io,
  fetch?: FetchLike,
  handlers?: InputHandlers,
  background = false,
): Promise<McpClient | undefined> {
  try {
    return await connectClient(line, io, fetch, handlers, background);
  } catch (error) {
    println(io.stderr, describeFailure(error));
    // A 404 without a JSON-RPC error at the first request: nothing speaks MCP at this path.
    if (error instanceof McpError && error.kind === "http" && error.status === 404) {
      println(
        io.stderr,
        `Is ${line.url.href} the server's MCP endpoint? Check the path (often /mcp).`,
      );
    }
    return undefined;
  }
}

/** Whether a signal's reason is `AbortSignal.timeout`'s. */
function isTimeout(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === "TimeoutError";
}

/** A failure as one readable line: the server's message, its code, and what to try. */
export function describeFailure(error: unknown): string {
  if (error instanceof AuthError) return authFailureText(error);
  if (!(error instanceof McpError)) return error instanceof Error ? error.message : String(error);
  if (error.kind === "aborted" && isTimeout(error.cause)) {
    return `The server did not answer ${error.method ?? "a request"} within --timeout.`;
  }
  const code = error.code === undefined ? "" : ` (JSON-RPC ${error.code})`;
  if (error.status === 401) {
    return `${error.message}${code} The server wants credentials: run "edgemcp login <url>", or pass --bearer <token> or set EDGEMCP_TOKEN.`;
  }
  if (error.status === 403) {
    return `${error.message}${code} The server refused these credentials (HTTP 403).`;
  }
  if (error.kind === "client" && isJsonObject(error.data) && "maxReplyBytes" in error.data) {
    return `${error.message} Here: pass --max-reply-bytes <bytes>.`;
  }
  return `${error.message}${code}`;
}
