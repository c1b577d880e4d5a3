import { describe, expect, it } from "vitest";
import {
  RESUME_LIMITS,
  resumableSse,
  SseResumeError,
  type ResumeAttempt,
} from "../../shared/sse-resume.ts";

const encoder = new TextEncoder();

/** A body sending `text`, then ending, or breaking as a dropped connection does. */
function body(text: string, end: "close" | "break" = "close"): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(encoder.encode(text));
      } else if (end === "close") controller.close();
      else controller.error(new TypeError("terminated"));
    },
  });
}

const sse = (text: string, status = 200) =>
  new Response(body(text), { status, headers: { "Content-Type": "text/event-stream" } });

/**
 * Reads the events' data (up to the one equal to `until`); `reopens` answers each reopening in
 * turn, and the ids asked for are recorded.
 */
async function read(
  first: ReadableStream<Uint8Array>,
  reopens: (() => Response)[],
  until?: string,
) {
  const asked: string[] = [];
  const attempts: ResumeAttempt[] = [];
  const data: string[] = [];
  const events = resumableSse(first, {
    reopen: async (lastEventId) => {
      asked.push(lastEventId);
      const next = reopens.shift();
      if (!next) throw new Error("no more reopenings expected");
      return next();
    },
    onResume: (attempt) => attempts.push(attempt),
  });
  for await (const event of events) {
    data.push(event.data);
    if (event.data === until) break;
  }
  return { asked, attempts, data };
}

describe("resuming a dropped SSE stream", () => {
  it("opens a stream that ended after an id again from that id, after the server's retry", async () => {
    const { asked, attempts, data } = await read(
      body("id: p\nretry: 0\ndata: \n\n"),
      [() => sse("id: m1\ndata: one\n\n"), () => sse("data: two\n\n")],
      "two",
    );
    // The priming event gave the first id; each resumed stream starts where the last ended.
    expect(asked).toEqual(["p", "m1"]);
    expect(attempts.map((a) => [a.lastEventId, a.delayMs, a.attempt])).toEqual([
      ["p", 0, 1],
      ["m1", 0, 1],
    ]);
    expect(data).toEqual(["", "one", "two"]);
  });

  it("gives up with a clear error after a bounded number of attempts that bring nothing", async () => {
    const empties = Array.from({ length: RESUME_LIMITS.maxAttempts }, () => () => sse(""));
    await expect(read(body("id: 9\nretry: 0\ndata: {}\n\n"), empties)).rejects.toThrow(
      new SseResumeError(
        `The server's stream ended and ${RESUME_LIMITS.maxAttempts} attempts to resume it after event "9" brought no message in 0 s (last: the resumed stream ended).`,
      ),
    );
  });

  it("doubles the server's delay on each attempt that brings nothing", async () => {
    const attempts: ResumeAttempt[] = [];
    const events = resumableSse(body("id: a\nretry: 1\n\n"), {
      reopen: async () => sse(""),
      onResume: (attempt) => attempts.push(attempt),
    });
    await expect(
      (async () => {
        for await (const _event of events);
      })(),
    ).rejects.toThrow(SseResumeError);
    expect(attempts.map((a) => a.delayMs)).toEqual([1, 2, 4, 8, 16]);
  });

  it("starts the count over when a resumed stream brings a message", async () => {
    const empty = () => sse("");
    const nearly = Array.from({ length: RESUME_LIMITS.maxAttempts - 1 }, () => empty);
    const { data, asked } = await read(
      body("id: 1\nretry: 0\ndata: a\n\n"),
      [...nearly, () => sse("id: 2\ndata: b\n\n"), ...nearly, () => sse("data: c\n\n")],
      "c",
    );
    expect(data).toEqual(["a", "b", "c"]);
    expect(asked.length).toBe(2 * RESUME_LIMITS.maxAttempts);
  });

  it("resumes a stream whose connection broke after an id", async () => {
    const { asked, data } = await read(
      body("id: 5\nretry: 0\ndata: a\n\n", "break"),
      [() => sse("data: b\n\n")],
      "b",
    );
    expect(asked).toEqual(["5"]);
    expect(data).toEqual(["a", "b"]);
  });

  it("ends a stream that never gave an id, and rethrows its break", async () => {
    expect((await read(body("data: a\n\n"), [])).data).toEqual(["a"]);
    await expect(read(body("data: a\n\n", "break"), [])).rejects.toThrow("terminated");
  });

  it("fails at once, with the status, when the server refuses the resumption", async () => {
    const refused = read(body("id: 5\nretry: 0\n\n"), [
      () => new Response("Session not found", { status: 404 }),
    ]);
    await expect(refused).rejects.toMatchObject({
      name: "SseResumeError",
      status: 404,
      message: `The server's stream ended and it refused to resume it after event "5" (GET with Last-Event-ID: HTTP 404, text/plain;charset=UTF-8).`,
    });
    const notSse = read(body("id: 5\nretry: 0\n\n"), [() => Response.json({})]);
    await expect(notSse).rejects.toMatchObject({ status: 200 });
  });

  it("retries a reopening that could not connect, within the same bound", async () => {
    const failures = Array.from({ length: RESUME_LIMITS.maxAttempts - 1 }, () => () => {
      throw new TypeError("fetch failed");
    });
    const { data } = await read(
      body("id: 5\nretry: 0\n\n"),
      [...failures, () => sse("data: back\n\n")],
      "back",
    );
    expect(data).toEqual(["back"]);
  });

  it("stops waiting when the signal aborts", async () => {
    const controller = new AbortController();
    let reopened = false;
    const events = resumableSse(body("id: 5\nretry: 60000\n\n"), {
      reopen: async () => {
        reopened = true;
        return sse("");
      },
      signal: controller.signal,
      onResume: () => controller.abort(new Error("stopped")),
    });
    await expect(
      (async () => {
        for await (const _event of events);
      })(),
    ).rejects.toThrow("stopped");
    expect(reopened).toBe(false);
  });
});
