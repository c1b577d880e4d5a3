import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { PromptReturn } from "../define/prompt.ts";
import { ForwardedResult } from "./ready.ts";

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
