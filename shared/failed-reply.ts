import type * as z from "zod/mini";
import type { JsonRpcErrorObjectSchema } from "./protocol/messages.ts";
import { JsonRpcErrorResponseSchema } from "./protocol/messages.ts";

/** The `error` member of a JSON-RPC error response. */
type RpcErrorObject = z.infer<typeof JsonRpcErrorObjectSchema>;

/** What a failed HTTP reply said: its status, the start of its body, and the JSON-RPC error in it. */
export type FailedReply = { status: number; text: string; error: RpcErrorObject | undefined };

/**
 * The most of a failed reply's body that is read (bytes): a JSON-RPC error is far smaller, and a
 * server that streams without end must not hold the caller.
 */
export const MAX_FAILED_REPLY_BYTES = 64 * 1024;

/** Reads a non-2xx reply: its JSON-RPC error when the body is one, else the body as text. */
export async function readFailedReply(response: Response): Promise<FailedReply> {
  const text = await startOf(response, MAX_FAILED_REPLY_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const rpc = JsonRpcErrorResponseSchema.safeParse(body);
  return { status: response.status, text, error: rpc.success ? rpc.data.error : undefined };
}

/** A failed reply that carries no JSON-RPC error, as one line: `HTTP 502: <its body's start>`. */
export function failedReplyLine(reply: FailedReply): string {
  const snippet = reply.text.trim().slice(0, 200);
  return `HTTP ${reply.status}${snippet ? `: ${snippet}` : ""}`;
}

/** The body's first `limit` bytes as text (what arrived, if it broke off); the rest is cancelled. */
async function startOf(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  try {
    while (bytes < limit) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      const part = value.subarray(0, limit - bytes);
      bytes += part.byteLength;
      text += decoder.decode(part, { stream: true });
    }
    reader.cancel().catch(() => undefined);
    return text + decoder.decode();
  } catch {
    return text;
  }
}
