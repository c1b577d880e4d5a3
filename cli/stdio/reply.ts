import { OversizedBodyError, readTextWithin } from "../../shared/bounded-body.ts";
import { isJsonObject } from "../../shared/jsonrpc.ts";
import type { JsonObject, JsonRpcId } from "../../shared/protocol/messages.ts";
import { carriesMessage, decodeSse, MAX_SSE_EVENT_BYTES, SseError } from "../../shared/sse.ts";
import { resumableSse, SseResumeError, type Reopen } from "../../shared/sse-resume.ts";

/** A reply body that is not what the transport allows, or a message that is not JSON. */
export class ReplyError extends Error {
  override readonly name = "ReplyError";
}

/**
 * The JSON-RPC messages of a POST's reply, in order: one from an `application/json` body, any
 * number from an SSE stream (until it ends; with `resume`, a stream the server drops after
 * giving event ids is opened again, as 2025 servers expect). Other bodies are refused, and so
 * is a JSON body or one SSE event past `maxBytes`, whose rest is not read.
 */
export async function* replyMessages(
  response: Response,
  resume?: { reopen: Reopen; signal: AbortSignal },
  maxBytes = MAX_SSE_EVENT_BYTES,
): AsyncGenerator<unknown> {
  const type = response.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  if (type === "application/json") {
    const text = await jsonText(response, maxBytes);
    try {
      yield JSON.parse(text);
    } catch {
      throw new ReplyError(`The server's JSON reply does not parse: ${text.slice(0, 200)}`);
    }
    return;
  }
  if (type === "text/event-stream" && response.body) {
    const events = resume
      ? resumableSse(response.body, { ...resume, maxEventBytes: maxBytes })
      : decodeSse(response.body, {}, maxBytes);
    try {
      for await (const event of events) {
        if (!carriesMessage(event)) continue;
        let message: unknown;
        try {
          message = JSON.parse(event.data);
        } catch {
          throw new ReplyError(`An SSE event is not JSON: ${event.data.slice(0, 200)}`);
        }
        yield message;
      }
    } catch (error) {
      if (error instanceof SseError || error instanceof SseResumeError) {
        throw new ReplyError(error.message);
      }
      throw error;
    }
    return;
  }
  await response.body?.cancel();
  throw new ReplyError(`The server answered with ${type ?? "no Content-Type"}, not JSON or SSE.`);
}

async function jsonText(response: Response, maxBytes: number): Promise<string> {
  try {
    return await readTextWithin(response, maxBytes);
  } catch (error) {
    if (!(error instanceof OversizedBodyError)) throw error;
    throw new ReplyError(
      `The server's JSON reply is larger than ${maxBytes} bytes; the rest was not read.`,
    );
  }
}

/** True when `message` is the response to the request `id`. */
export function answers(message: unknown, id: JsonRpcId): message is JsonObject {
  return (
    isJsonObject(message) &&
    !("method" in message) &&
    message.id === id &&
    ("result" in message || "error" in message)
  );
}
