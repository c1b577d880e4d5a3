import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { JsonObject, JsonRpcId } from "../../../shared/protocol/messages.ts";
import { LOG_LEVELS, type LogLevel } from "../../../shared/protocol/meta.ts";
import {
  is,
  isPlainObject,
  object as objectOf,
  optional,
  problemsOf,
  type Check,
  type Problems,
} from "../../../shared/protocol/hand-check.ts";
import { typeMismatch } from "../../../shared/zod-issues.ts";

// The params every server's methods read (tools/list and tools/call, the 2025 handshake, the
// log level, subscriptions, cancellation), checked by hand as the schemas of
// shared/protocol/params.ts check them, so a Worker links none of zod's records, unions, enums
// or regexes unless its own schemas use them. Each problem is said in the words zod's issues
// get from describeIssues, in the order zod finds them; a test holds both to the same answers.

/** Refuses what `test` refuses as zod refuses a value not of the type `expected`. */
const typed = (expected: string, test: (value: unknown) => boolean) =>
  is(test, (value) => typeMismatch(expected, value));

const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[\x21-\x7e]*$/;

/**
 * The checks of each kind's params, built by the first full check: a tool call's params of the
 * usual shape need none (see `callParams`), and building them costs every new isolate.
 */
function shapes(): Record<keyof Shapes, Check> {
  const string = typed("string", (value) => typeof value === "string");
  /** Any JSON object (`JsonObjectSchema`: a zod record of unknown values). */
  const record = typed("record", isPlainObject);
  /** An object whose members `shape` checks; unknown members pass, as zod's objects let them. */
  const object = (shape: Record<string, Check>) =>
    objectOf(shape, (value) => typeMismatch("object", value));
  const uri: Check = (value, path, problems) => {
    if (typeof value !== "string") string(value, path, problems);
    else if (!ABSOLUTE_URI.test(value))
      problems.push(
        `${path}: must be an absolute URI (RFC 3986): a scheme, then visible ASCII with other characters percent-encoded`,
      );
  };
  const level = is(
    (value) => (LOG_LEVELS as readonly unknown[]).includes(value),
    `Invalid option: expected one of ${LOG_LEVELS.map((l) => `"${l}"`).join("|")}`,
  );
  const mrtr = { inputResponses: optional(record), requestState: optional(string) };
  return {
    list: object({ cursor: optional(string) }),
    call: object({ name: string, arguments: optional(record), ...mrtr }),
    initialize: object({
      protocolVersion: string,
      capabilities: record,
      clientInfo: object({ name: string, version: string }),
    }),
    setLevel: object({ level }),
    subscribe: object({ uri }),
  };
}

let SHAPES: Record<keyof Shapes, Check> | undefined;

export type ListParams = { cursor?: string | undefined };
export type CallToolParams = {
  name: string;
  arguments?: JsonObject | undefined;
  inputResponses?: JsonObject | undefined;
  requestState?: string | undefined;
};
export type InitializeParams = {
  protocolVersion: string;
  capabilities: JsonObject;
  clientInfo: { name: string; version: string } & JsonObject;
};
type Shapes = {
  list: ListParams;
  call: CallToolParams;
  initialize: InitializeParams;
  setLevel: { level: LogLevel };
  subscribe: { uri: string };
};

/** The problems of `params` as `kind`'s params, each `params.path: words` (none: they are good). */
export function paramsProblems(kind: keyof Shapes, params: unknown): Problems {
  SHAPES ??= shapes();
  return problemsOf(SHAPES[kind], params, "params");
}

/**
 * `params` of the request `method` as `kind`'s params, or -32602 saying what is wrong
 * (`Invalid params for tools/call: params.name: Invalid input: expected string, received number`).
 */
export function checkedParams<K extends keyof Shapes>(
  kind: K,
  params: JsonObject,
  method: string,
): Shapes[K] {
  const problems = paramsProblems(kind, params);
  if (problems.length === 0) return params as Shapes[K];
  throw new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params for ${method}: ${problems.join("; ")}`,
  );
}

/** What `notifications/cancelled` names: the request to stop and why (undefined: unreadable). */
export function cancelledParams(
  params: unknown,
): { requestId: JsonRpcId; reason?: string | undefined } | undefined {
  if (!isPlainObject(params)) return undefined;
  const { requestId, reason } = params as JsonObject;
  const id =
    typeof requestId === "string" || (typeof requestId === "number" && Number.isFinite(requestId));
  if (!id || (reason !== undefined && typeof reason !== "string")) return undefined;
  return { requestId, reason };
}
