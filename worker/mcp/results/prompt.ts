import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { PromptMessage } from "../../../shared/protocol/primitives.ts";
import { ForwardedResult } from "./ready.ts";

/** What a prompt may return: a user message text, messages, or messages with a description. */
export type PromptReturn =
  string | PromptMessage[] | { description?: string; messages: PromptMessage[] } | ForwardedResult;

/** Turns what a prompt's `get` returned into a GetPromptResult. */
export function toPromptResult(value: PromptReturn): JsonObject {
  if (value instanceof ForwardedResult) return value.json;
  if (typeof value === "string")
    return { messages: [{ role: "user", content: { type: "text", text: value } }] };
  if (Array.isArray(value)) return { messages: value };
  return value.description === undefined
    ? { messages: value.messages }
    : { description: value.description, messages: value.messages };
}
