import { errorText } from "../../../shared/error-text.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";
import type { Era } from "../../../shared/protocol/versions.ts";

/**
 * One line per request, as the logging hook receives it. `level` is `error` when the server
 * failed (a bug: -32603, or a handler's own exception), `warn` when the request was refused
 * (any other JSON-RPC error), `info` otherwise (a `ToolError` is the tool's answer: `info`).
 */
export type RequestLog = {
  time: string;
  level: "info" | "warn" | "error";
  /** The server's name. */
  server: string;
  method?: string;
  /** The tool or prompt called, or the resource read. */
  name?: string;
  /** The authenticated caller; absent for anonymous callers. */
  subject?: string;
  era?: Era;
  /** `tool_error`: a tool answered `isError` (its failure, or arguments that fail its schema). */
  status: "ok" | "tool_error" | "error";
  /** The JSON-RPC error code, when `status` is `error`. */
  code?: number;
  /** The HTTP status of the reply (200 for a stream). */
  httpStatus: number;
  durationMs: number;
  /** What went wrong: the reply's error message, or the details behind a generic one. */
  error?: string;
  /** This request's id in error messages (the model's and the client's) and in its trace. */
  correlationId: string;
  traceId: string;
  /** The caller's span, when it sent a valid `traceparent`. */
  parentId?: string;
};

/** Receives one `RequestLog` per request. */
export type RequestLogger = (entry: RequestLog) => void;

/**
 * What to log: `"errors"` (the default: one JSON line on `console.error` per request the
 * server failed), `"requests"` (one JSON line per request: `console.log`, or `console.error`
 * for failures), `"off"`, or a function receiving every entry.
 */
export type LogSetting = "errors" | "requests" | "off" | RequestLogger;

const SETTINGS = new Set(["errors", "requests", "off"]);

/** The setting from the option, else from `EDGEMCP_LOG`, else `"errors"`. */
export function logSetting(
  option: LogSetting | undefined,
  variable: string | undefined,
): LogSetting {
  if (option !== undefined) return option;
  const named = variable?.trim().toLowerCase();
  return named && SETTINGS.has(named) ? (named as LogSetting) : "errors";
}

/** The logger a setting stands for; undefined when nothing is logged. */
export function loggerFor(setting: LogSetting): RequestLogger | undefined {
  if (typeof setting === "function") return setting;
  if (setting === "off") return undefined;
  const all = setting === "requests";
  return (entry) => {
    if (entry.level === "error") console.error(JSON.stringify(entry));
    else if (all) console.log(JSON.stringify(entry));
  };
}

/** What a request's log line needs besides its outcome, gathered while it is served. */
export class Observation {
  readonly started = Date.now();
  method: string | undefined;
  name: string | undefined;
  era: Era | undefined;
  subject: string | undefined;
  /** The exception behind a generic failure: details for the log only. */
  fault: unknown;
  /** Whether a tool answered `isError`. */
  toolError = false;

  constructor(
    readonly server: string,
    readonly trace: Trace,
  ) {}

  get correlationId(): string {
    return this.trace.spanId;
  }

  /** The log entry of the finished request. */
  entry(httpStatus: number, error?: { code: number; message: string }): RequestLog {
    const failed = error !== undefined;
    const bug = this.fault !== undefined || error?.code === -32603;
    const details = this.fault === undefined ? error?.message : describeFault(this.fault);
    return {
      time: new Date(this.started).toISOString(),
      level: bug ? "error" : failed ? "warn" : "info",
      server: this.server,
      ...(this.method === undefined ? {} : { method: this.method }),
      ...(this.name === undefined ? {} : { name: this.name }),
      ...(this.subject ? { subject: this.subject } : {}),
      ...(this.era === undefined ? {} : { era: this.era }),
      status: failed ? "error" : this.toolError ? "tool_error" : "ok",
      ...(failed ? { code: error.code } : {}),
      httpStatus,
      durationMs: Date.now() - this.started,
      ...(details === undefined ? {} : { error: details }),
      correlationId: this.correlationId,
      traceId: this.trace.traceId,
      ...(this.trace.parentId ? { parentId: this.trace.parentId } : {}),
    };
  }
}

/** An exception's message and stack, for the log. */
function describeFault(fault: unknown): string {
  if (fault instanceof Error && fault.stack) {
    return fault.stack.includes(fault.message)
      ? fault.stack
      : `${errorText(fault)}\n${fault.stack}`;
  }
  return errorText(fault);
}

/**
 * The W3C trace context of one request: the trace it belongs to (the caller's, when it sent a
 * valid `traceparent`, else a new one), the caller's span, and this request's own span, which
 * doubles as its correlation id in logs and error messages.
 */
export type Trace = {
  traceId: string;
  /** This request's span id (16 hex digits): its correlation id. */
  spanId: string;
  /** The caller's span, from a valid incoming `traceparent`. */
  parentId?: string;
  /** Trace flags (2 hex digits; "01" sampled). */
  flags: string;
  /** The `traceparent` to send upstream: this trace, with this request as the parent span. */
  traceparent: string;
};

// version-traceid-parentid-flags, lowercase hex (W3C Trace Context, level 1).
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZEROS = /^0+$/;

/**
 * Reads a `traceparent` value, or undefined when it is malformed: wrong shape or case, version
 * ff, an all-zero trace or parent id, or a version-00 value with anything after the flags.
 * Future versions may append fields, which are ignored.
 */
export function parseTraceparent(
  value: unknown,
): { traceId: string; parentId: string; flags: string } | undefined {
  if (typeof value !== "string" || value.length > 512) return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string | undefined,
  ];
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (ZEROS.test(traceId) || ZEROS.test(parentId)) return undefined;
  return { traceId, parentId, flags };
}

function randomHex(bytes: number): string {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The trace of a request: `_meta.traceparent` first, then the `traceparent` header; a
 * malformed value is ignored (never trusted, never echoed) and the request starts a new trace.
 */
export function traceOf(meta: unknown, headers: Headers | undefined): Trace {
  const incoming =
    parseTraceparent(isJsonObject(meta) ? meta.traceparent : undefined) ??
    parseTraceparent(headers?.get("traceparent"));
  const spanId = randomHex(8);
  const traceId = incoming?.traceId ?? randomHex(16);
  const flags = incoming?.flags ?? "00";
  return {
    traceId,
    spanId,
    ...(incoming ? { parentId: incoming.parentId } : {}),
    flags,
    traceparent: `00-${traceId}-${spanId}-${flags}`,
  };
}
