import { errorText } from "../../../shared/error-text.ts";
import type { Era } from "../../../shared/protocol/versions.ts";
import type { Observation } from "./trace.ts";

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
  return setting === "requests" ? logEveryRequest : logServerFailures;
}

/** `"requests"`: one JSON line per request, on `console.error` for the server's failures. */
function logEveryRequest(entry: RequestLog): void {
  if (entry.level === "error") console.error(JSON.stringify(entry));
  else console.log(JSON.stringify(entry));
}

/** `"errors"`: one JSON line per request the server failed (see `logRequest`). */
function logServerFailures(entry: RequestLog): void {
  if (entry.level === "error") console.error(JSON.stringify(entry));
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
 * Writes the finished request's line to the request's logger, if it has one: the last step of
 * every request, whatever stage ended it.
 */
export function logRequest(
  log: RequestLogger | undefined,
  observation: Observation,
  httpStatus: number,
  error?: { code: number; message: string },
): void {
  if (!log) return;
  // The default setting writes only the server's failures: for the rest, no entry is built.
  if (log === logServerFailures && !isServerFailure(observation, error)) return;
  log(entryOf(observation, httpStatus, error));
}

/** A bug: an exception behind a generic failure, or -32603 (the entry's `error` level). */
function isServerFailure(observation: Observation, error: { code: number } | undefined): boolean {
  return observation.fault !== undefined || error?.code === -32603;
}

/** The log entry of a finished request. */
function entryOf(
  observation: Observation,
  httpStatus: number,
  error?: { code: number; message: string },
): RequestLog {
  const failed = error !== undefined;
  const bug = isServerFailure(observation, error);
  const details =
    observation.fault === undefined ? error?.message : describeFault(observation.fault);
  return {
    time: new Date(observation.started).toISOString(),
    level: bug ? "error" : failed ? "warn" : "info",
    server: observation.server,
    ...(observation.method === undefined ? {} : { method: observation.method }),
    ...(observation.name === undefined ? {} : { name: observation.name }),
    ...(observation.subject ? { subject: observation.subject } : {}),
    ...(observation.era === undefined ? {} : { era: observation.era }),
    status: failed ? "error" : observation.toolError ? "tool_error" : "ok",
    ...(failed ? { code: error.code } : {}),
    httpStatus,
    durationMs: Date.now() - observation.started,
    ...(details === undefined ? {} : { error: details }),
    correlationId: observation.correlationId,
    traceId: observation.trace.traceId,
    ...(observation.trace.parentId ? { parentId: observation.trace.parentId } : {}),
  };
}
