/** How a reply may be framed, given the request's `Accept` header. */
export type ReplyMode = "json-or-sse" | "json-only" | "sse-only";

/** Modes of `Accept` values seen, since clients send the same few values on every request. */
const seen = new Map<string, ReplyMode | undefined>();
const MAX_SEEN = 64;

/** Reads `Accept`; undefined when it allows neither `application/json` nor `text/event-stream`. */
export function replyModeOf(accept: string | undefined): ReplyMode | undefined {
  if (accept === undefined) return "json-or-sse";
  if (seen.has(accept)) return seen.get(accept);
  const mode = parseAccept(accept);
  // Short values only, and a bounded table: a client cannot grow it with made-up headers.
  if (accept.length <= 256) {
    if (seen.size >= MAX_SEEN) seen.clear();
    seen.set(accept, mode);
  }
  return mode;
}

function parseAccept(accept: string): ReplyMode | undefined {
  if (accept.trim() === "") return "json-or-sse";
  let json = false;
  let sse = false;
  for (const entry of accept.split(",")) {
    // Parameters are rare: their callback is compiled only for an entry that has some.
    const [given = "", ...params] = entry.split(";");
    if (params.some((p) => /^q=0(\.0*)?$/.test(p.trim().toLowerCase()))) continue;
    const type = given.trim().toLowerCase();
    if (type === "*/*") json = sse = true;
    else if (type === "application/*" || type === "application/json") json = true;
    else if (type === "text/*" || type === "text/event-stream") sse = true;
  }
  if (json && sse) return "json-or-sse";
  if (json) return "json-only";
  return sse ? "sse-only" : undefined;
}
