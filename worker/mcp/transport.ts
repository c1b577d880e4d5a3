import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { parseMessage, peekId, type JsonRpcMessage } from "../../shared/jsonrpc.ts";
import { replyModeOf } from "../http/accept.ts";
import { BodyTooLarge, readLimited } from "../http/body.ts";
import { httpError } from "../http/http-error.ts";
import type { RequestInfo } from "./context.ts";
import { createContext } from "./context-factory.ts";
import { dispatch, resolveMethod } from "./dispatch.ts";
import { eraOf, legacyProgressToken, legacyVersionOf } from "./legacy-request.ts";
import { checkModernRequest } from "./modern-request.ts";
import { errorOutcome, resultOutcome } from "./outcome.ts";
import { replyTo, type Outcome } from "./reply.ts";
import type { McpServer } from "./server.ts";

export type TransportOptions = {
  /** Largest accepted body in bytes. */
  maxBodyBytes: number;
  /** Interval of SSE keep-alive comments (0 turns them off). */
  keepAliveMs: number;
};

/** What the Worker passes along with the request. */
export type Runtime = { env: Cloudflare.Env; waitUntil(promise: Promise<unknown>): void };

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function outcomeResponse({ json, status }: Outcome): Response {
  return new Response(json, { status, headers: { "Content-Type": "application/json" } });
}

/** Serves one POST to an MCP endpoint: framing, era, validation, then the method. */
export async function handlePost(
  server: McpServer,
  request: Request,
  runtime: Runtime,
  options: TransportOptions,
): Promise<Response> {
  const contentType = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  if (contentType !== "application/json") {
    return httpError(
      415,
      `Content-Type must be application/json (got ${contentType ? `"${contentType}"` : "none"}).`,
    );
  }
  const mode = replyModeOf(request.headers.get("Accept") ?? undefined);
  if (!mode) {
    return httpError(
      406,
      "The Accept header must allow application/json or text/event-stream (send both).",
    );
  }

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

  if (parsed.kind === "notification") return new Response(null, { status: 202 });
  if (parsed.kind === "response") {
    return outcomeResponse(
      errorOutcome(
        new RpcError(
          ErrorCode.InvalidRequest,
          "This server sends no requests, so it accepts no JSON-RPC responses.",
        ),
        undefined,
        "legacy",
      ),
    );
  }

  const message = parsed.message;
  const era = eraOf(parsed, request.headers);
  let info: RequestInfo;
  try {
    const base = { id: message.id, method: message.method, era };
    info =
      era === "modern"
        ? { ...base, ...checkModernRequest(message, request.headers) }
        : {
            ...base,
            protocolVersion: legacyVersionOf(message, request.headers),
            clientCapabilities: {},
            ...legacyProgressToken(message),
          };
    resolveMethod(server.catalog, era, message.method);
  } catch (error) {
    return outcomeResponse(errorOutcome(error, message.id, era));
  }

  const catalog = server.catalog;
  return replyTo({
    requestSignal: request.signal,
    mode,
    keepAliveMs: options.keepAliveMs,
    async execute(notify, signal) {
      const ctx = createContext(info, runtime.env, runtime.waitUntil, notify, signal);
      try {
        const reply = await dispatch({
          catalog,
          params: message.params ?? {},
          headers: request.headers,
          ctx,
        });
        return resultOutcome(reply, message.id, era, catalog);
      } catch (error) {
        return errorOutcome(error, message.id, era);
      }
    },
  });
}
