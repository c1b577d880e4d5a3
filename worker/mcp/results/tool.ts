import * as z from "zod/mini";
import type { ContentBlock } from "../../../shared/protocol/content.ts";
import { errorText } from "../../../shared/error-text.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";
import { ErrorCode, RpcError, ToolError } from "../../../shared/protocol/errors.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { CompiledTool } from "../catalog/catalog.ts";
import { ToolResult } from "../define/tool.ts";
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

/** The result a model sees when a tool fails: `isError` with text it can act on. */
export function toolFailure(tool: CompiledTool, error: unknown): JsonObject {
  const message =
    error instanceof ToolError
      ? error.message
      : `Tool "${tool.wire.name}" failed: ${errorText(error)}`;
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

function contentOf(tool: CompiledTool, value: unknown): ContentBlock[] {
  if (typeof value === "string") return [{ type: "text", text: value }];
  if (Array.isArray(value)) return value;
  if (isJsonObject(value) && typeof value.type === "string") return [value as ContentBlock];
  console.error(`Tool "${tool.wire.name}" returned an unsupported value`, value);
  throw new RpcError(
    ErrorCode.InternalError,
    `Tool "${tool.wire.name}" returned a value the runtime cannot send (a server bug).`,
  );
}
