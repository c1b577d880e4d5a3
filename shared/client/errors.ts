import type { Era } from "../protocol/versions.ts";

/**
 * What failed:
 * - `rpc`: the server answered with a JSON-RPC error (`code`, `data`; `status` if not 2xx);
 * - `http`: a non-2xx reply without a usable JSON-RPC error, or an auth refusal (401/403);
 * - `network`: the request never got an HTTP reply;
 * - `protocol`: the reply broke the protocol (bad JSON, wrong shape, stream ended early);
 * - `aborted`: the caller's signal fired, or the server cancelled the task;
 * - `client`: the client was asked for something it cannot do (missing handler, page cap).
 */
export type McpErrorKind = "rpc" | "http" | "network" | "protocol" | "aborted" | "client";

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
