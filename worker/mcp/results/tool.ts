import * as z from "zod/mini";
import { ContentBlockSchema, type ContentBlock } from "../../../shared/protocol/content.ts";
import { errorText } from "../../../shared/error-text.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";
import { ErrorCode, RpcError, ToolError } from "../../../shared/protocol/errors.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { CompiledTool } from "../catalog/catalog.ts";
import { ToolResult } from "../define/tool.ts";
import { describeIssues } from "../methods/method.ts";
import { ForwardedResult } from "./ready.ts";

/** Turns what a tool's `run` returned into a CallToolResult (its era shapes it further). */
export function shapeToolResult(tool: CompiledTool, value: unknown): JsonObject {
  const { output } = tool.definition;
  // A copy, so the era's adjustments leave the forwarded object alone.
  if (value instanceof ForwardedResult) return { ...value.json };
  if (value instanceof ToolResult) {
    const { content, structuredContent, isError, _meta } = value.init;
    if (output && structuredContent !== undefined && !isError) checkOutput(tool, structuredContent);
    return {
      content: content ?? (structuredContent === undefined ? [] : [jsonText(structuredContent)]),
      ...(structuredContent === undefined ? {} : { structuredContent }),
      ...(isError ? { isError: true } : {}),
      ...(_meta ? { _meta } : {}),
    };
  }
  if (output) {
    const structured = checkOutput(tool, value);
    return { content: [jsonText(structured)], structuredContent: structured };
  }
  return { content: contentOf(tool, value) };
}

/**
 * The result a model sees when a tool fails: `isError` with a `ToolError`'s message, written for
 * the model; any other exception may hold secrets or internals, so the model reads only that the
 * tool failed, with the correlation id that finds the details in the log.
 */
export function toolFailure(tool: CompiledTool, error: unknown, correlationId: string): JsonObject {
  const message =
    error instanceof ToolError
      ? error.message
      : `Tool "${tool.wire.name}" failed because of an error inside the server (correlation id ${correlationId}). Its details are in the server's log.`;
  return { content: [{ type: "text", text: message }], isError: true };
}

function jsonText(value: unknown): ContentBlock {
  return { type: "text", text: JSON.stringify(value) };
}

function checkOutput(tool: CompiledTool, value: unknown): unknown {
  const { output } = tool.definition;
  const parsed = output && z.safeParse(output, value);
  if (parsed && !parsed.success) {
    console.error(
      `Tool "${tool.wire.name}" returned output that breaks its outputSchema`,
      parsed.error.issues,
    );
    throw new RpcError(
      ErrorCode.InternalError,
      `Tool "${tool.wire.name}" produced a result that does not match its declared outputSchema (a server bug).`,
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
// Built once, on the first tool that returns content blocks.
const ContentBlocksSchema = /* @__PURE__ */ z.lazy(() => z.array(ContentBlockSchema));

function contentOf(tool: CompiledTool, value: unknown): ContentBlock[] {
  if (typeof value === "string") return [{ type: "text", text: value }];
  const blocks = Array.isArray(value) ? value : [value];
  if (blocks.some(looksLikeContent)) {
    const parsed = z.safeParse(ContentBlocksSchema, blocks);
    if (parsed.success) return blocks as ContentBlock[];
    return unsendable(tool, value, describeIssues(parsed.error, "content"));
  }
  if (value === undefined || typeof value === "function" || typeof value === "bigint")
    return unsendable(tool, value, `${typeof value} is not JSON`);
  try {
    return [jsonText(value)];
  } catch (error) {
    return unsendable(tool, value, errorText(error));
  }
}

function unsendable(tool: CompiledTool, value: unknown, why: string): never {
  console.error(`Tool "${tool.wire.name}" returned a value the runtime cannot send: ${why}`, value);
  throw new RpcError(
    ErrorCode.InternalError,
    `Tool "${tool.wire.name}" returned a value the runtime cannot send (a server bug).`,
  );
}
