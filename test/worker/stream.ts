import { decodeSse } from "../../shared/sse.ts";
import type { Message } from "../support/reply.ts";
import { assertWireValid } from "../support/wire-schema.ts";

/** Reads an SSE response one schema-checked message at a time, for long-lived streams. */
export function messages(response: Response, method: string) {
  if (!response.body) throw new Error("the response has no body");
  const events = decodeSse(response.body);
  return {
    /** The next message; fails after `timeoutMs` (a stream that goes quiet is a bug). */
    async next(timeoutMs = 3_000): Promise<Message> {
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no message within ${timeoutMs} ms`)), timeoutMs),
      );
      const event = await Promise.race([events.next(), timeout]);
      if (event.done) throw new Error("the stream ended");
      const message: Message = JSON.parse(event.value.data);
      assertWireValid(message, method, "2026");
      return message;
    },
    /** Whether the stream ends within `timeoutMs` without another message. */
    async ends(timeoutMs = 3_000): Promise<boolean> {
      const timeout = new Promise<"open">((resolve) =>
        setTimeout(() => resolve("open"), timeoutMs),
      );
      const event = await Promise.race([events.next(), timeout]);
      return event !== "open" && event.done === true;
    },
    /** Closes the stream, as a client does to unsubscribe or cancel. */
    close: () => events.return(undefined),
  };
}
