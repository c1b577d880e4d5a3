import * as z from "zod/mini";
import { issuesLine } from "../zod-issues.ts";
import type { JsonObject } from "../protocol/messages.ts";
import { McpError, type ErrorContext } from "./errors.ts";

/** Validates a result against its schema, or fails as a protocol error naming what is wrong. */
export function parseResult<T>(
  schema: z.core.$ZodType<T>,
  value: unknown,
  context: ErrorContext,
): T {
  const parsed = z.safeParse(schema, value);
  if (parsed.success) return parsed.data;
  throw new McpError(
    `The ${context.method} result is not valid: ${issuesLine(parsed.error, value)}.`,
    { kind: "protocol", data: { result: value }, ...context },
  );
}

/** The `resultType` of a raw result; 2025 results have none, which means "complete". */
export function resultTypeOf(result: JsonObject): string {
  const type = result.resultType;
  return typeof type === "string" ? type : "complete";
}

/** Validates a result that must be complete (no input rounds, no task) against its schema. */
export function parseComplete<T>(
  schema: z.core.$ZodType<T>,
  result: JsonObject,
  context: ErrorContext,
): T {
  const type = resultTypeOf(result);
  if (type !== "complete") {
    throw new McpError(`Unsupported result type "${type}" for ${context.method}.`, {
      kind: "protocol",
      data: { result },
      ...context,
    });
  }
  return parseResult(schema, result, context);
}
