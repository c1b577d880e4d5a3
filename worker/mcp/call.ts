import * as z from "zod/mini";
import "../../shared/zod-locale.ts";
import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import type { JsonObject } from "../../shared/protocol/messages.ts";
import type { Catalog } from "./catalog.ts";
import type { ServerCapabilities } from "../../shared/protocol/capabilities.ts";

import type { HandlerContext } from "./context.ts";
import type { RawResult } from "./raw.ts";
import type { Cursors } from "./cursors.ts";
import type { InputSession } from "./input/session.ts";
import type { TaskService } from "./tasks/service.ts";

/** One request as the dispatcher sees it: validated envelope, era, and the handler context. */
export type Call = {
  catalog: Catalog;
  /** What the server advertises to this request's era. */
  capabilities: ServerCapabilities;
  params: JsonObject;
  headers: Headers;
  ctx: HandlerContext;
  /** Opens and seals list cursors for this caller. */
  cursors: Cursors;
  /** The multi-round-trip input of a 2026 tools/call, prompts/get or resources/read. */
  input: InputSession | undefined;
  /** This caller's tasks, when the server runs tasks and advertises them. */
  tasks: TaskService | undefined;
};

/** A method's answer: a result object (decorated per era by the transport) or final bytes. */
export type Reply = JsonObject | RawResult;

export type MethodHandler = (call: Call) => Promise<Reply> | Reply;

/** Parses a method's params with its schema, or throws -32602 saying what is wrong. */
export function parseParams<S extends z.core.$ZodType>(schema: S, call: Call): z.output<S> {
  const parsed = z.safeParse(schema, call.params);
  if (parsed.success) return parsed.data;
  throw new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params for ${call.ctx.request.method}: ${describeIssues(parsed.error, "params")}`,
  );
}

/** Zod issues as one readable line: `path: message; path: message`. */
export function describeIssues(error: z.core.$ZodError, root: string): string {
  return error.issues
    .map(
      (issue) =>
        `${issue.path.length > 0 ? `${root}.${issue.path.join(".")}` : root}: ${issue.message}`,
    )
    .join("; ");
}
