import type { Era } from "../protocol/versions.ts";
import { MESSAGE_RULES } from "./era/index.ts";
import { error, warning, type Finding } from "./finding.ts";
import { headerOf, mediaType, type HeaderBag } from "./headers.ts";

/** What an HTTP reply answered: a request (with its era), or a notification. */
export type ReplyContext = { era: Era; notification: boolean };

/**
 * Checks an HTTP reply before its body: a notification is accepted with 202; a request is
 * answered with JSON or an SSE stream (errors may come as JSON with a 4xx status), with the
 * headers its era allows.
 */
export function checkHttpReply(
  status: number,
  headers: HeaderBag,
  context: ReplyContext,
): Finding[] {
  const type = mediaType(headerOf(headers, "Content-Type"));
  if (context.notification) {
    if (status >= 200 && status < 300 && status !== 202)
      return [
        warning(
          "http.notification",
          `An accepted notification is answered with 202, not ${status}.`,
        ),
      ];
    return [];
  }
  if (type !== "application/json" && type !== "text/event-stream")
    return [
      error(
        "http.content-type",
        `A request must be answered with JSON or SSE, not "${type || "no Content-Type"}" (HTTP ${status}).`,
      ),
    ];
  if (type === "text/event-stream" && status !== 200)
    return [error("http.status", `An SSE reply must have status 200, not ${status}.`)];
  return MESSAGE_RULES[context.era].replyHeaders(headers);
}
