import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import type { JsonRpcRequest } from "../../shared/jsonrpc.ts";
import type { Caller } from "../auth/bearer.ts";
import type { ReplyMode } from "../http/accept.ts";
import { Handles } from "../state/handles.ts";
import type { Keyring } from "../state/keyring.ts";
import { Sealer } from "../state/sealer.ts";
import type { Era, HandlerContext, RequestInfo } from "./context.ts";
import { callerKey, watchCancel } from "./cancel.ts";
import { legacyInput } from "./input/legacy-input.ts";
import { createContext } from "./context-factory.ts";
import { Cursors } from "./cursors.ts";
import { dispatch, resolveMethod } from "./dispatch.ts";
import { InputSession } from "./input/session.ts";
import { eraOf, legacyProgressToken, legacyVersionOf } from "./legacy-request.ts";
import { checkModernRequest } from "./modern-request.ts";
import { errorOutcome, outcomeResponse, resultOutcome } from "./outcome.ts";
import { replyTo } from "./reply.ts";
import type { McpServer } from "./server.ts";
import type { Runtime, TransportOptions } from "./transport.ts";

/** Methods whose handlers may ask the client for input (MRTR). */
const INPUT_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);

type Served = {
  runtime: Runtime;
  options: TransportOptions;
  mode: ReplyMode;
  caller: Caller | undefined;
  keyring: Keyring;
};

/**
 * Serves one JSON-RPC request: picks the era, validates headers and `_meta` (modern), opens any
 * `requestState`, then runs the method and answers in JSON or SSE. Everything that can fail
 * before the handler runs is answered with its own HTTP status.
 */
export async function serveRequest(
  server: McpServer,
  message: JsonRpcRequest,
  request: Request,
  served: Served,
): Promise<Response> {
  const { runtime, options, mode, caller } = served;
  const era = eraOf({ kind: "request", message }, request.headers);
  const params = message.params ?? {};
  const sealer = new Sealer(served.keyring);
  const subject = caller?.subject ?? "";
  let info: RequestInfo;
  let input: InputSession | undefined;
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
    if (era === "modern" && INPUT_METHODS.has(message.method)) {
      input = await InputSession.start(
        message.method,
        params,
        info.clientCapabilities,
        sealer,
        subject,
      );
    }
  } catch (error) {
    return outcomeResponse(errorOutcome(error, message.id, era));
  }

  const catalog = server.catalog;
  const { rendezvous } = runtime.durable;
  const abort = new AbortController();
  const done = new AbortController();
  if (rendezvous && INPUT_METHODS.has(message.method)) {
    watchCancel(rendezvous, callerKey(caller, request), message.id, done.signal, (reason) =>
      abort.abort(new Error(reason)),
    );
  }
  return replyTo({
    requestSignal: request.signal,
    mode,
    keepAliveMs: options.keepAliveMs,
    abort,
    async execute(notify, signal) {
      const ctx = createContext({
        request: info,
        env: runtime.env,
        waitUntil: runtime.waitUntil,
        notify,
        signal,
        caller,
        handles: new Handles(sealer, subject),
        input: inputFor(input, era, message.method, () => legacyInput(notify, signal, rendezvous)),
      });
      try {
        const reply = await dispatch({
          catalog,
          params,
          headers: request.headers,
          ctx,
          cursors: new Cursors(sealer, subject),
          input,
        });
        return resultOutcome(reply, message.id, era, catalog);
      } catch (error) {
        return errorOutcome(error, message.id, era);
      } finally {
        done.abort();
      }
    },
  });
}

/** `ctx.input` for this request: MRTR over 2026-07-28, server-to-client requests for 2025 clients. */
function inputFor(
  session: InputSession | undefined,
  era: Era,
  method: string,
  legacy: () => HandlerContext["input"],
): HandlerContext["input"] {
  if (session) return (requests) => session.input(requests);
  if (era === "legacy" && INPUT_METHODS.has(method)) return legacy();
  return () =>
    Promise.reject(
      new RpcError(
        ErrorCode.InternalError,
        `Asking the client for input is not available in ${method} handlers (only tools/call, prompts/get and resources/read).`,
      ),
    );
}
