import { readFailedReply } from "../failed-reply.ts";
import type { Era } from "../protocol/versions.ts";

/**
 * What failed:
 * - `rpc`: the server answered with a JSON-RPC error (`code`, `data`; `status` if not 2xx);
 * - `http`: a non-2xx reply without a usable JSON-RPC error, or an auth refusal (401/403);
 * - `network`: the request never got an HTTP reply, or its reply's stream broke off;
 * - `protocol`: the reply broke the protocol (bad JSON, wrong shape, stream ended early);
 * - `aborted`: the caller's signal fired, or the server cancelled the task;
 * - `client`: the client was asked for something it cannot do (missing handler, page cap);
 * - `auth`: signing in failed (an `AuthError` from `edgemcp/client/auth`, which names the rule).
 */
export type McpErrorKind = "rpc" | "http" | "network" | "protocol" | "aborted" | "client" | "auth";

/** Everything an McpError carries besides its message. */
export type McpErrorInit = {
  kind: McpErrorKind;
  code?: number;
  data?: unknown;
  status?: number;
  era?: Era;
  method?: string;
  cause?: unknown;
};

/** Every failure the client reports: a JSON-RPC error, an HTTP or network failure, or misuse. */
export class McpError extends Error {
  override readonly name = "McpError";
  readonly kind: McpErrorKind;
  /** The JSON-RPC error code, when the server sent one. */
  readonly code: number | undefined;
  readonly data: unknown;
  /** The HTTP status of the reply, when there was one. */
  readonly status: number | undefined;
  readonly era: Era | undefined;
  /** The JSON-RPC method of the request that failed. */
  readonly method: string | undefined;

  constructor(message: string, init: McpErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.code = init.code;
    this.data = init.data;
    this.status = init.status;
    this.era = init.era;
    this.method = init.method;
  }
}

/** True when `error` is an McpError carrying JSON-RPC `code`. */
export function hasRpcCode(error: unknown, code: number): error is McpError {
  return error instanceof McpError && error.code === code;
}

/** The era and method a failure belongs to, stamped on every error raised for it. */
export type ErrorContext = { era: Era; method: string };

/** The error for a fired signal, whatever the runtime threw when it fired. */
export function abortError(signal: AbortSignal, context: ErrorContext): McpError {
  return new McpError(`The ${context.method} request was aborted.`, {
    kind: "aborted",
    cause: signal.reason,
    ...context,
  });
}

/** The error for a JSON-RPC error object the server sent, with the reply's status. */
export function rpcError(
  error: { code: number; message: string; data?: unknown },
  status: number,
  context: ErrorContext,
): McpError {
  return new McpError(error.message, {
    kind: "rpc",
    code: error.code,
    data: error.data,
    status,
    ...context,
  });
}

/**
 * The error for a non-2xx reply: a JSON-RPC error in the body is an `rpc` error with the status,
 * except auth refusals (401/403), which stay `http` errors whatever the body says.
 */
export async function httpFailure(response: Response, context: ErrorContext): Promise<McpError> {
  const { status, text, error } = await readFailedReply(response);
  if (error && status !== 401 && status !== 403) return rpcError(error, status, context);
  return new McpError(
    error ? error.message : `HTTP ${status} from the server for ${context.method}.`,
    {
      kind: "http",
      status,
      ...(error ? { code: error.code, data: error.data } : { data: { body: text.slice(0, 1000) } }),
      ...context,
    },
  );
}
