import type { ReplyMode } from "../http/accept.ts";
import type { JsonObject } from "../../shared/protocol/messages.ts";
import { encodeSseMessage } from "../../shared/sse.ts";
import { outcomeResponse } from "./outcome.ts";
import { SSE_HEADERS, SseWriter } from "./sse-writer.ts";

/** A finished call, serialized: the JSON-RPC response and the HTTP status it would have alone. */
export type Outcome = { json: string; status: number };

/** Sends a message before the response; false when the client cannot receive it (JSON only, or gone). */
export type Notify = (message: JsonObject) => boolean;

/**
 * Runs a call and answers it as plain JSON if it finishes before sending any notification,
 * or as an SSE stream from the first notification on. Closing that stream, or the client
 * going away (`request.signal`), aborts `abort`; nothing is sent after that.
 */
export function replyTo(options: {
  requestSignal: AbortSignal;
  mode: ReplyMode;
  keepAliveMs: number;
  /** Aborted when the call must stop: the client left, closed the stream, or cancelled it. */
  abort: AbortController;
  execute(notify: Notify, signal: AbortSignal): Promise<Outcome>;
}): Promise<Response> {
  const { requestSignal, mode, keepAliveMs, abort } = options;
  const onGone = () => abort.abort(new Error("The client closed the request."));
  if (requestSignal.aborted) onGone();
  else requestSignal.addEventListener("abort", onGone, { once: true });

  let stream: SseWriter | undefined;
  let settle!: (response: Response) => void;
  const response = new Promise<Response>((resolve) => (settle = resolve));
  const openStream = (): SseWriter => {
    const writer = new SseWriter(keepAliveMs, () =>
      abort.abort(new Error("The client closed the stream.")),
    );
    settle(new Response(writer.readable, { headers: SSE_HEADERS }));
    return writer;
  };

  const notify: Notify = (message) => {
    if (abort.signal.aborted || mode === "json-only") return false;
    stream ??= openStream();
    stream.send(JSON.stringify(message));
    return true;
  };

  void options.execute(notify, abort.signal).then((outcome) => {
    requestSignal.removeEventListener("abort", onGone);
    if (stream) {
      if (!abort.signal.aborted) stream.send(outcome.json);
      stream.close();
    } else if (mode === "sse-only") {
      settle(
        new Response(encodeSseMessage(outcome.json), {
          status: outcome.status,
          headers: SSE_HEADERS,
        }),
      );
    } else {
      settle(outcomeResponse(outcome));
    }
  });
  return response;
}
