import * as z from "zod/mini";
import type {
  ClientCapabilities,
  ServerCapabilities,
} from "../../../shared/protocol/capabilities.ts";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { Catalog } from "../catalog/catalog.ts";
import type { List } from "../catalog/list.ts";
import type { HandlerContext, RequestInfo } from "../context/context.ts";
import type { Seals } from "../context/handles.ts";
import type { Observation } from "../observe/trace.ts";
import type { Access } from "../../auth/access.ts";
import type { CallerTasks } from "../ports.ts";
import type { Listening } from "../define/features.ts";

export type { Listening };
import type { RawResult } from "../results/ready.ts";
import { describeIssues } from "../schema/issues.ts";

/** What a method asks of the request's era where eras differ. */
export type EraRules = {
  /** A page of a list, serialized as this era's clients read it. */
  page(list: List, cursor: string | undefined, seals: Seals): Promise<RawResult>;
  /** The error code of a resource that does not exist. */
  readonly resourceNotFound: number;
  /** Throws -32021 when the request lacks what `what` needs (where the era can tell). */
  requireCapabilities(required: ClientCapabilities, info: RequestInfo, what: string): void;
};

/** One request as a method sees it: its params and context, with the server it is for. */
export type Call = {
  era: EraRules;
  catalog: Catalog;
  /** What the server advertises to this request's era. */
  capabilities: ServerCapabilities;
  params: JsonObject;
  ctx: HandlerContext;
  /** The request's sealing (its handler's `ctx.handles`, and list cursors). */
  seals: Seals;
  /** This caller's tasks, when the server runs tasks and advertises them. */
  tasks: CallerTasks | undefined;
  /** The request's log line in the making (absent where nothing logs the request). */
  observation?: Observation | undefined;
  /** Who may do what on this endpoint (tools/list shows each caller only what it may call). */
  access?: Access | undefined;
};

/** A method's answer: a result object (shaped for its era afterwards) or final bytes. */
export type MethodResult = JsonObject | RawResult;

export type MethodHandler = (call: Call) => Promise<MethodResult> | MethodResult;

/**
 * Where a method goes: a handler answered once (`asks`: it may ask the client for input), or a
 * stream that answers itself (`subscriptions/listen`).
 */
export type Route =
  { run: MethodHandler; asks?: true } | { stream: (listening: Listening) => Promise<Response> };

/** Parses a method's params with its schema, or throws -32602 saying what is wrong. */
export function parseParams<S extends z.core.$ZodType>(
  schema: S,
  call: Pick<Call, "params" | "ctx">,
): z.output<S> {
  const parsed = z.safeParse(schema, call.params);
  if (parsed.success) return parsed.data;
  throw new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params for ${call.ctx.request.method}: ${describeIssues(parsed.error, "params", call.params)}`,
  );
}
