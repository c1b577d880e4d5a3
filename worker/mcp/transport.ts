import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { parseMessage, peekId, type JsonRpcMessage } from "../../shared/jsonrpc.ts";
import { AuthError, type Authenticate, type Caller } from "../auth/bearer.ts";
import { replyModeOf } from "../http/accept.ts";
import { BodyTooLarge, readLimited } from "../http/body.ts";
import { httpError } from "../http/http-error.ts";
import { keyringOf, MissingSecretError, type Keyring } from "../state/keyring.ts";
import { errorOutcome, outcomeResponse } from "./outcome.ts";
import { serveRequest } from "./serve-request.ts";
import { takeNotification, takeResponse } from "./client-messages.ts";
import type { DurableSetup } from "../durable/bindings.ts";
import type { Served } from "./server.ts";

export type TransportOptions = {
  /** Largest accepted body in bytes. */
  maxBodyBytes: number;
  /** Interval of SSE keep-alive comments (0 turns them off). */
  keepAliveMs: number;
  /** How long a listen stream stays open before the server ends it gracefully. */
  listenMaxMs: number;

  /** Establishes the caller; without it every caller is anonymous. */
  authenticate?: Authenticate;
};

/** What the Worker passes along with the request. */
export type Runtime = {
  env: Cloudflare.Env;
  waitUntil(promise: Promise<unknown>): void;
  /** Durable Objects for work that spans requests and instances. */
  durable: DurableSetup;
};

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Serves one POST to an MCP endpoint: configuration and caller first, then framing
 * (Content-Type 415, Accept 406, size 413, JSON -32700, envelope -32600), then the message.
 */
export async function handlePost(
  server: Served,
  request: Request,
  runtime: Runtime,
  options: TransportOptions,
): Promise<Response> {
  let keyring: Keyring;
  let caller: Caller | undefined;
  try {
    keyring = await keyringOf(runtime.env);
    caller = await options.authenticate?.(request, runtime.env);
  } catch (error) {
    if (error instanceof MissingSecretError) {
      console.error(error.message);
      return httpError(500, `Server misconfigured: ${error.message}`);
    }
    if (error instanceof AuthError)
      return httpError(401, error.message, { "WWW-Authenticate": error.challenge });
    throw error;
  }

  const contentType = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  if (contentType !== "application/json") {
    return httpError(
      415,
      `Content-Type must be application/json (got ${contentType ? `"${contentType}"` : "none"}).`,
    );
  }
  const mode = replyModeOf(request.headers.get("Accept") ?? undefined);
  if (!mode)
    return httpError(
      406,
      "The Accept header must allow application/json or text/event-stream (send both).",
    );

  let parsed: JsonRpcMessage;
  let value: unknown;
  try {
    const bytes = await readLimited(request, options.maxBodyBytes);
    try {
      value = JSON.parse(utf8.decode(bytes));
    } catch {
      throw new RpcError(ErrorCode.ParseError, "Parse error: the body is not valid UTF-8 JSON.");
    }
    parsed = parseMessage(value);
  } catch (error) {
    if (error instanceof BodyTooLarge)
      return httpError(413, `${error.message} Send a smaller request.`);
    return outcomeResponse(errorOutcome(error, peekId(value), "modern"));
  }

  if (parsed.kind === "notification") {
    await takeNotification(parsed.message, request, caller, runtime.durable);
    return new Response(null, { status: 202 });
  }
  if (parsed.kind === "response") return takeResponse(parsed.message, runtime.durable);

  return serveRequest(server, parsed.message, request, { runtime, options, mode, caller, keyring });
}
