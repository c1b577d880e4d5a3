import { decodeSse } from "../../shared/sse.ts";
import type { Era } from "./contenders.ts";
import { checkWire } from "./wire-schema.ts";

// Wire JSON is untyped; checks read its members loosely here and only here.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type Message = Record<string, unknown> & {
  id?: string | number | null;
  method?: string;
  result?: any;
  error?: any;
  params?: any;
};
/* eslint-enable @typescript-eslint/no-explicit-any */

/** An answer as a client reads it: status, every JSON-RPC message in order, the final one. */
export type Reply = {
  status: number;
  contentType: string;
  /** The raw body, as the load checks see it. */
  text: string;
  messages: Message[];
  final: Message | undefined;
};

/** Reads a JSON or SSE answer; with `method`, checks each message against the official schema. */
export async function readReply(
  response: Response,
  method?: string,
  era: Era = "2026",
): Promise<Reply> {
  const contentType = response.headers.get("Content-Type") ?? "";
  const text = await response.text();
  const messages: Message[] = [];
  if (contentType.startsWith("text/event-stream")) {
    for await (const event of decodeSse(new Blob([text]).stream()))
      messages.push(JSON.parse(event.data));
  } else if (text !== "") {
    messages.push(JSON.parse(text));
  }
  if (method !== undefined) for (const message of messages) checkWire(message, method, era);
  const final = messages.find((m) => "result" in m || "error" in m);
  return { status: response.status, contentType, text, messages, final };
}
