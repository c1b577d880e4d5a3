import type { ContentBlock, ResourceContents } from "../../shared/protocol/content.ts";
import type { PromptMessage } from "../../shared/protocol/primitives.ts";

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

/** What a resource reader may return: text, bytes, one content entry or several. */
export type ReadReturn =
  | string
  | Uint8Array
  | { text: string; mimeType?: string }
  | { blob: Uint8Array | string; mimeType?: string }
  | ResourceContents[]
  | ForwardedResult;

/** What a prompt may return: a user message text, messages, or messages with a description. */
export type PromptReturn =
  string | PromptMessage[] | { description?: string; messages: PromptMessage[] } | ForwardedResult;

/** Completion candidates; the runtime caps them at 100 and fills `total`/`hasMore`. */
export type CompletionReturn = string[] | { values: string[]; total?: number; hasMore?: boolean };

/**
 * A result produced by another server (the hub forwarding a call), sent on as it is: only the
 * shape 2025 clients require is adjusted. It may also be a task (`resultType: "task"`).
 */
export class ForwardedResult {
  constructor(readonly json: Record<string, unknown>) {}
}
