import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import { replyModeOf, type ReplyMode } from "../../http/accept.ts";
import { readRequestBody, type BodyLimits } from "../../http/body.ts";
import { HttpError } from "../../http/http-error.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * The frame stage: what the POST carries, before any JSON-RPC is read from it. Content-Type
 * must be JSON (415), `Accept` must allow JSON or SSE (406, which decides how the reply may be
 * framed), the body must fit (413), arrive in time (408) and be UTF-8 JSON (-32700).
 */
export async function frame(
  request: Request,
  body: BodyLimits,
): Promise<{ value: unknown; mode: ReplyMode }> {
  const mode = frameHeaders(request.headers);
  const bytes = await readRequestBody(request, body);
  try {
    return { value: JSON.parse(utf8.decode(bytes)), mode };
  } catch {
    throw new RpcError(ErrorCode.ParseError, "Parse error: the body is not valid UTF-8 JSON.");
  }
}

/**
 * What framing asks of the headers alone (Content-Type 415, `Accept` 406): all of it for a
 * message given in this isolate, which has no body to read.
 */
export function frameHeaders(headers: Headers): ReplyMode {
  const given = headers.get("Content-Type");
  const contentType =
    given === "application/json" ? given : given?.split(";")[0]?.trim().toLowerCase();
  if (contentType !== "application/json") {
    throw new HttpError(
      415,
      `Content-Type must be application/json (got ${contentType ? `"${contentType}"` : "none"}).`,
    );
  }
  const mode = replyModeOf(headers.get("Accept") ?? undefined);
  if (!mode)
    throw new HttpError(
      406,
      "The Accept header must allow application/json or text/event-stream (send both).",
    );
  return mode;
}
