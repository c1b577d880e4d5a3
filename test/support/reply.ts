import { decodeSse } from "../../shared/sse.ts";
import { assertWireValid, type Era } from "./wire-schema.ts";

// Wire JSON is untyped; tests assert on its shape, so members are `any` here and only here.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type Message = Record<string, unknown> & {
  id?: string | number | null;
  result?: any;
  error?: any;
  method?: string;
  params?: any;
};
/* eslint-enable @typescript-eslint/no-explicit-any */

/** A reply as a client sees it: status, headers, every JSON-RPC message in order, the final one. */
export type Reply = {
  status: number;
  headers: Headers;
  contentType: string;
  messages: Message[];
  /** The response (result or error) that ends the exchange, if any. */
  final: Message | undefined;
};

/**
 * Reads a reply (JSON or SSE) and checks every message against the official schema of the
 * request's era, so each test also proves the server speaks the wire format.
 */
export async function readReply(
  response: Response,
  method: string,
  era: Era = "2026",
): Promise<Reply> {
  const contentType = response.headers.get("Content-Type") ?? "";
  const messages: Message[] = [];
  if (contentType.startsWith("text/event-stream") && response.body) {
    for await (const event of decodeSse(response.body)) messages.push(JSON.parse(event.data));
  } else {
    const text = await response.text();
    if (text !== "") messages.push(JSON.parse(text));
  }
  for (const message of messages) assertWireValid(message, method, era);
  const final = messages.find((m) => "result" in m || "error" in m);
  return { status: response.status, headers: response.headers, contentType, messages, final };
}
