import * as z from "zod/mini";
import { errorText } from "../../../shared/error-text.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";
import type { ContentBlock } from "../../../shared/protocol/content.ts";
import { contentProblem } from "../../../shared/protocol/content-check.ts";
import { ErrorCode, RpcError, ToolError } from "../../../shared/protocol/errors.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import { ForwardedResult } from "./ready.ts";

/** A complete tool result, for when a plain return value is not enough. */
export class ToolResult<S = unknown> {
  constructor(
    readonly init: {
      content?: ContentBlock[];
      structuredContent?: S;
      isError?: boolean;
      _meta?: Record<string, unknown>;
    },
  ) {}
}

/** Builds a full tool result: content blocks, structured content and/or `isError`. */
export function toolResult<S = unknown>(init: ToolResult<S>["init"]): ToolResult<S> {
  return new ToolResult(init);
}

/** What a tool without an output schema may return. */
export type ToolReturn = string | ContentBlock | ContentBlock[] | ToolResult | ForwardedResult;

/** Turns what a tool's `run` returned into a CallToolResult (its era shapes it further). */
export function shapeToolResult(
  name: string,
  output: z.core.$ZodType | undefined,
  value: unknown,
): JsonObject {
  // A copy, so the era's adjustments leave the forwarded object alone.
  if (value instanceof ForwardedResult) return { ...value.json };
  if (value instanceof ToolResult) {
    const { content, structuredContent, isError, _meta } = value.init;
    if (output && structuredContent !== undefined && !isError)
      checkOutput(name, output, structuredContent);
    return {
      content: content ?? (structuredContent === undefined ? [] : [jsonText(structuredContent)]),
      ...(structuredContent === undefined ? {} : { structuredContent }),
      ...(isError ? { isError: true } : {}),
      ...(_meta ? { _meta } : {}),
    };
  }
  if (output) {
    const structured = checkOutput(name, output, value);
    return { content: [jsonText(structured)], structuredContent: structured };
  }
  return { content: contentOf(name, value) };
}

/**
 * The result a model sees when a tool fails: `isError` with a `ToolError`'s message, written for
 * the model; any other exception may hold secrets or internals, so the model reads only that the
 * tool failed, with the correlation id that finds the details in the log.
 */
export function toolFailure(name: string, error: unknown, correlationId: string): JsonObject {
  const message =
    error instanceof ToolError
      ? error.message
      : `Tool "${name}" failed because of an error inside the server (correlation id ${correlationId}). Its details are in the server's log.`;
  return { content: [{ type: "text", text: message }], isError: true };
}

function jsonText(value: unknown): ContentBlock {
  return { type: "text", text: JSON.stringify(value) };
}

function checkOutput(name: string, output: z.core.$ZodType | undefined, value: unknown): unknown {
  const parsed = output && z.safeParse(output, value);
  if (parsed && !parsed.success) {
    console.error(
      `Tool "${name}" returned output that breaks its outputSchema`,
      parsed.error.issues,
    );
    throw new RpcError(
      ErrorCode.InternalError,
      `Tool "${name}" produced a result that does not match its declared outputSchema (a server bug).`,
    );
  }
  return parsed ? parsed.data : value;
}

/** The `type`s of content blocks: a value carrying one of them is meant as content. */
const CONTENT_TYPES = new Set(["text", "image", "audio", "resource_link", "resource"]);

const looksLikeContent = (value: unknown): boolean =>
  isJsonObject(value) && typeof value.type === "string" && CONTENT_TYPES.has(value.type);

/**
 * The content of a tool without an output schema: text, content blocks as given, and any other
 * JSON value (an array of rows, a number, a plain object) as its JSON text. A value meant as
 * content but not valid content, or one JSON cannot carry, is a server bug (-32603).
 */
function contentOf(name: string, value: unknown): ContentBlock[] {
  if (typeof value === "string") return [{ type: "text", text: value }];
  const blocks = Array.isArray(value) ? value : [value];
  if (blocks.some(looksLikeContent)) {
    const problem = contentProblem(blocks, "content");
    if (!problem) return blocks as ContentBlock[];
    return unsendable(name, value, problem);
  }
  if (value === undefined || typeof value === "function" || typeof value === "bigint")
    return unsendable(name, value, `${typeof value} is not JSON`);
  try {
    return [jsonText(value)];
  } catch (error) {
    return unsendable(name, value, errorText(error));
  }
}

function unsendable(name: string, value: unknown, why: string): never {
  console.error(`Tool "${name}" returned a value the runtime cannot send: ${why}`, value);
  throw new RpcError(
    ErrorCode.InternalError,
    `Tool "${name}" returned a value the runtime cannot send (a server bug).`,
  );
}
