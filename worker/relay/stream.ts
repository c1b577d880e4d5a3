import { BOUND_VARIABLES, type RelayBounds } from "./settings.ts";

/** Why a relayed body was cut short, in words for the page. */
type Cut = { rule: "response-size" | "idle" | "total-time" | "target-failed"; message: string };

const encoder = new TextEncoder();

/**
 * The target's body as the page receives it: chunk by chunk as it arrives (an SSE event is
 * passed on as soon as the target flushes it, nothing is buffered), cut off past the size bound,
 * after `idleMs` without a chunk, or at `deadline` (the exchange's total time). An SSE stream
 * that is cut ends with an `event: relay-error` naming the rule, which MCP clients ignore and the
 * wire view shows; any other body is errored, so the page sees it truncated rather than whole.
 * `done` runs once, however the body ends (read to the end, cut, or cancelled by the page).
 */
export function boundedBody(
  body: ReadableStream<Uint8Array>,
  options: {
    bounds: RelayBounds;
    deadline: number;
    sse: boolean;
    stop: () => void;
    done: () => void;
  },
): ReadableStream<Uint8Array> {
  const { bounds, deadline, sse, stop } = options;
  const reader = body.getReader();
  let bytes = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    options.done();
  };
  const cut = (controller: ReadableStreamDefaultController<Uint8Array>, why: Cut) => {
    stop();
    reader.cancel().catch(() => {});
    if (sse) {
      const data = JSON.stringify({ rule: why.rule, message: why.message });
      controller.enqueue(encoder.encode(`event: relay-error\ndata: ${data}\n\n`));
      controller.close();
    } else controller.error(new Error(why.message));
    finish();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const left = deadline - Date.now();
      const wait = Math.min(bounds.idleMs, left);
      let timer: ReturnType<typeof setTimeout> | null = null;
      const late = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), Math.max(0, wait));
      });
      let next: ReadableStreamReadResult<Uint8Array> | "late";
      try {
        const read = reader.read();
        // Once the race is lost (a timer won), a later rejection of the read is of no interest.
        read.catch(() => {});
        next = await Promise.race([read, late]);
      } catch {
        return cut(controller, {
          rule: "target-failed",
          message: "The target's response broke off (a malformed or interrupted body).",
        });
      } finally {
        if (timer !== null) clearTimeout(timer);
      }
      if (next === "late")
        return cut(
          controller,
          left <= bounds.idleMs
            ? {
                rule: "total-time",
                message: `The relayed exchange ran past ${bounds.totalMs} ms (${BOUND_VARIABLES.totalMs}).`,
              }
            : {
                rule: "idle",
                message: `The target sent nothing for ${bounds.idleMs} ms (${BOUND_VARIABLES.idleMs}).`,
              },
        );
      if (next.done) {
        controller.close();
        return finish();
      }
      bytes += next.value.byteLength;
      if (bytes > bounds.responseBytes)
        return cut(controller, {
          rule: "response-size",
          message: `The target's response is larger than ${bounds.responseBytes} bytes (${BOUND_VARIABLES.responseBytes}).`,
        });
      controller.enqueue(next.value);
    },
    cancel() {
      stop();
      reader.cancel().catch(() => {});
      finish();
    },
  });
}
