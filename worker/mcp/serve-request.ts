import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { TASKS_EXTENSION } from "../../shared/protocol/tasks.ts";
import type { JsonRpcRequest } from "../../shared/protocol/messages.ts";
import type { Caller } from "../auth/bearer.ts";
import type { ReplyMode } from "../http/accept.ts";
import type { Keyring } from "../state/keyring.ts";
import { Sealer } from "../state/sealer.ts";
import { advertisedCapabilities } from "./advertised.ts";
import { callerKey } from "./cancel.ts";
import type { HandlerContext, RequestInfo } from "./context.ts";
import type { Era } from "../../shared/protocol/versions.ts";
import { createContext } from "./context-factory.ts";
import { Cursors } from "./cursors.ts";
import type { MethodHandler } from "./call.ts";
import { dispatch, methodNotFound, resolveMethod } from "./dispatch.ts";
import { InputSession } from "./input/session.ts";
import { eraOf, legacyProgressToken, legacyVersionOf } from "./legacy-request.ts";
import { listenFilterOf, openBusListen } from "./listen.ts";

import { checkModernRequest } from "./modern-request.ts";
import { errorOutcome, outcomeResponse, resultOutcome } from "./outcome.ts";
import { replyTo, type Notify } from "./reply.ts";

import type { Served } from "./server.ts";
import type { Catalog } from "./catalog.ts";
import type { Runtime, TransportOptions } from "./transport.ts";

/** Methods whose handlers may ask the client for input (MRTR). */
const INPUT_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);

type Serving = {
  runtime: Runtime;
  options: TransportOptions;
  mode: ReplyMode;
  caller: Caller | undefined;
  keyring: Keyring;
};

/** The request's era and validated envelope (modern headers and `_meta`, or the legacy version). */
function requestInfo(message: JsonRpcRequest, request: Request, era: Era): RequestInfo {
  const base = { id: message.id, method: message.method, era };
  if (era === "modern") return { ...base, ...checkModernRequest(message, request.headers) };
  return {
    ...base,
    protocolVersion: legacyVersionOf(message, request.headers),
    clientCapabilities: {},
    ...legacyProgressToken(message),
  };
}

/**
 * Serves one JSON-RPC request: picks the era, validates headers and `_meta` (modern), opens any
 * `requestState`, then runs the method and answers in JSON or SSE. Everything that can fail
 * before the handler runs is answered with its own HTTP status.
 */
export async function serveRequest(
  server: Served,
  message: JsonRpcRequest,
  request: Request,
  served: Serving,
): Promise<Response> {
  const { runtime, options, mode, caller } = served;
  const { durable } = runtime;
  const era = eraOf(message, request.headers);
  const params = message.params ?? {};
  const sealer = new Sealer(served.keyring);
  const subject = caller?.subject ?? "";
  let catalog: Catalog;
  try {
    catalog = await server.catalogFor(runtime);
  } catch (error) {
    return outcomeResponse(errorOutcome(error, message.id, era));
  }
  const capabilities = advertisedCapabilities(catalog, durable, era);
  const contextFor = (
    details: RequestInfo,
    signal: AbortSignal,
    send: Notify,
    io: Pick<HandlerContext, "input" | "relay">,
  ) =>
    createContext({
      request: details,
      env: runtime.env,
      waitUntil: runtime.waitUntil,
      send,
      signal,
      caller,
      sealer,
      server: server.name,
      bus: durable.bus,
      ...io,
    });
  let info: RequestInfo;
  let handler: MethodHandler;
  let input: InputSession | undefined;
  try {
    info = requestInfo(message, request, era);
    if (message.method === "subscriptions/listen" && era === "modern") {
      const settings = { keepAliveMs: options.keepAliveMs, maxMs: options.listenMaxMs };
      // The server's own source (the hub's) wins over the bus.
      const source = catalog.definition.listen;
      if (source) {
        const filter = listenFilterOf(message, info, capabilities);
        const listenInfo = info;
        const context = (signal: AbortSignal) =>
          contextFor(listenInfo, signal, () => false, refuseInput(message.method));
        return source(message.id, filter, context, settings);
      }
      const { bus } = durable;
      if (!bus) throw methodNotFound(message.method, era);
      const filter = listenFilterOf(message, info, capabilities);
      return await openBusListen(message.id, filter, bus.getByName(server.name), settings);
    }
    handler = resolveMethod(capabilities, era, message.method);
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

  const { rendezvous, drivers } = durable;
  const abort = new AbortController();
  const stopWatching =
    rendezvous && drivers && INPUT_METHODS.has(message.method)
      ? drivers.watchCancel(rendezvous, callerKey(caller, request), message.id, (reason) =>
          abort.abort(new Error(reason)),
        )
      : undefined;
  return replyTo({
    requestSignal: request.signal,
    mode,
    keepAliveMs: options.keepAliveMs,
    abort,
    async execute(notify, signal) {
      // Everything runs inside the try: an execute that rejected would leave the reply unsettled.
      try {
        const io = inputFor(input, era, message.method, () =>
          rendezvous && drivers
            ? drivers.legacyInput(notify, signal, rendezvous)
            : refuseInput(
                message.method,
                "This server cannot ask 2025-era clients for input: no rendezvous Durable Object is bound.",
              ),
        );
        const ctx = contextFor(info, signal, notify, io);
        const tasks =
          durable.tasks && drivers && capabilities.extensions?.[TASKS_EXTENSION]
            ? drivers.tasks(durable.tasks, server.name, subject)
            : undefined;
        const cursors = new Cursors(sealer, subject);
        const call = {
          catalog,
          capabilities,
          params,
          headers: request.headers,
          ctx,
          cursors,
          input,
          tasks,
        };
        return resultOutcome(await dispatch(handler, call), message.id, era, catalog);
      } catch (error) {
        return errorOutcome(error, message.id, era);
      } finally {
        stopWatching?.();
      }
    },
  });
}

/**
 * `ctx.input` and `ctx.relay` for this request: MRTR over 2026-07-28, server-to-client
 * requests for 2025 clients, and a clear refusal in methods that cannot ask.
 */
function inputFor(
  session: InputSession | undefined,
  era: Era,
  method: string,
  legacy: () => Pick<HandlerContext, "input" | "relay">,
): Pick<HandlerContext, "input" | "relay"> {
  if (session) return { input: (requests) => session.input(requests), relay: session.relay() };
  if (era === "legacy" && INPUT_METHODS.has(method)) return legacy();
  return refuseInput(method);
}

/** `ctx.input` and `ctx.relay` in a handler that cannot ask the client for input. */
function refuseInput(
  method: string,
  reason = `Asking the client for input is not available in ${method} handlers (only tools/call, prompts/get and resources/read).`,
): Pick<HandlerContext, "input" | "relay"> {
  const refuse = () => Promise.reject(new RpcError(ErrorCode.InternalError, reason));
  return { input: refuse, relay: { state: undefined, responses: {}, ask: refuse } };
}
