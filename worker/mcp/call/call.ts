import { TASKS_EXTENSION } from "../../../shared/protocol/capabilities.ts";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { EraAsking } from "../define/input.ts";
import type { Call, Listening, MethodHandler, MethodResult } from "../methods/method.ts";
import { logRequest } from "../observe/log.ts";
import { failure } from "../request/errors.ts";
import { EraResponse, respond, type Outcome } from "../request/reply.ts";
import { RawResult } from "../results/ready.ts";
import { CallAbort } from "./abort.ts";
import { NO_INPUT_ROUNDS, refused } from "../context/refused.ts";
import type { CallMeans, RoutedRequest } from "./calling.ts";
import type { Asking, Cancel, Notify } from "../context/context.ts";
import { createContext } from "../context/handler-context.ts";
import { notifierFor } from "../context/notifier.ts";
import { ReplyStream } from "./reply-stream.ts";

/** A route's handler, answered once; `asks`: it may ask the client for input. */
export type Method = { run: MethodHandler; asks?: true };

/**
 * The call stage: prepares how the handler may ask for input (where that can fail, before any
 * reply), ties the call's lifetime to the client (going away, closing the stream, cancelling
 * from another request), and starts the handler. Resolves with the response: a stream from the
 * handler's first notification, else the whole reply once the handler is done. The call then
 * ends its reply and writes the request's log line; a failure is an error outcome of the
 * request's era, never a rejection.
 */
export async function startCall(
  route: Method,
  request: RoutedRequest,
  means: CallMeans,
): Promise<Response | Outcome> {
  const abort = new CallAbort(request.client);
  const reply = new ReplyStream(
    request.mode,
    { keepAliveMs: means.keepAliveMs, maxBufferedBytes: means.sseBufferBytes },
    abort,
  );
  const pending = askingFor(route, request, means, reply.send, abort);
  // Only rounds are prepared asynchronously; the rest costs no turn of the event loop.
  const asking = pending instanceof Promise ? await pending : pending;
  void run(route, request, means, asking, reply, abort);
  const first = await reply.first;
  // A whole reply's Response is built by the edge that sends it, and no object of the call holds
  // it: workerd keeps a copy of the body until the Response is collected, and Responses the
  // reply stream held piled up until V8's full collection (tools/list with 1000 tools grew
  // workerd to 2 GiB in seconds; built on its way out it stays near 150 MiB).
  return first instanceof Response ? first : respond(first, request.mode);
}

/**
 * How a call's handler may ask for input, prepared before it runs (where that can fail, before
 * any reply): the era's rounds when the server links them and the method may ask.
 */
export function askingFor(
  route: Method,
  request: RoutedRequest,
  means: CallMeans,
  send: Notify,
  cancel: Cancel,
): Promise<EraAsking> | EraAsking {
  const { era, info, params } = request;
  const rounds = request.catalog.definition.input;
  if (route.asks && rounds) {
    const { handles, coordination } = means;
    const setup = { method: info.method, params, info, handles, send, cancel, coordination };
    return rounds.asking(era.name, setup, request.answers);
  }
  if (route.asks) {
    // Answers to nothing are ignored, as a server with rounds ignores those its requestState
    // does not ask for; a requestState is a handle this server never issued.
    if (params.requestState !== undefined) throw noRequestState();
    return NO_INPUT_ROUNDS;
  }
  return refused(info.method);
}

// Made when thrown rather than at load: an Error captures a stack when constructed.
function noRequestState(): RpcError {
  return new RpcError(
    ErrorCode.InvalidParams,
    "This server asks its clients for no input, so it issued no requestState: send the request without requestState.",
  );
}

/** A listen request as its stream sees it: contexts that live as long as the stream. */
export function listening(request: RoutedRequest, means: CallMeans): Listening {
  const asking = refused(request.info.method);
  return {
    ...request,
    ...means,
    subject: request.caller?.subject ?? "",
    context: (signal) => contextOf(request, means, { signal }, () => false, asking),
  };
}

/** The handler's context for this request, with its notification channel and its input. */
function contextOf(
  request: RoutedRequest,
  means: CallMeans,
  cancel: Cancel,
  send: Notify,
  asking: Asking,
) {
  const { era, info } = request;
  return createContext({
    request: info,
    env: means.env,
    waitUntil: means.waitUntil,
    send,
    cancel,
    caller: request.caller,
    headers: request.headers,
    handles: means.handles,
    notify: notifierFor(means.coordination.listen, request.server),
    asking,
    logs(level) {
      return era.logs(level, info);
    },
  });
}

/**
 * For a call that may run long (one that may ask), aborts the call when another request cancels
 * it; returns what stops watching once the call is over.
 */
function watchCancel(
  request: RoutedRequest,
  { coordination }: CallMeans,
  abort: CallAbort,
): (() => void) | undefined {
  const { cancellationKey } = request;
  if (!coordination.cancellation || cancellationKey === undefined) return undefined;
  return coordination.cancellation.watch(cancellationKey, request.info.id, (reason) =>
    abort.abort(new Error(reason)),
  );
}

/**
 * Runs the handler to its outcome (a failure is an error outcome of the request's era), ends
 * the reply with it, and logs the request. One async function for all of it: each one more
 * is a promise and a turn per call.
 */
async function run(
  route: Method,
  request: RoutedRequest,
  means: CallMeans,
  asking: EraAsking,
  reply: ReplyStream,
  abort: CallAbort,
): Promise<void> {
  const { era, info, catalog } = request;
  // Only a call that may ask for input can outlive its request and be cancelled by another.
  const stopWatching = route.asks ? watchCancel(request, means, abort) : undefined;
  let outcome: Outcome;
  try {
    let result: MethodResult;
    try {
      result = await route.run(methodCall(request, means, asking, reply.send, abort));
    } catch (error) {
      // A handler still missing answers ends this round (2026), where the era has rounds.
      if (!asking.inputRequired) throw error;
      result = await asking.inputRequired(error);
    }
    const headers = era.resultHeaders(info);
    if (result instanceof RawResult) {
      const head = `{"jsonrpc":"2.0","id":${JSON.stringify(info.id)},"result":`;
      // The text is joined only if something reads it (a stream, a caller of this isolate); a
      // JSON response is spliced from the kept bytes.
      const kept = result.bytes && { head, result: result.bytes };
      outcome = { message: `${head}${result.json}}`, kept, status: 200, headers };
    } else {
      // Serialized for HTTP, or built as an object for a caller of this isolate, by its edge.
      outcome = { message: new EraResponse(era, result, info.id, catalog), status: 200, headers };
    }
  } catch (error) {
    outcome = failure(error, info.id, era, request.observation);
  } finally {
    stopWatching?.();
    abort.release();
  }
  reply.end(outcome);
  logRequest(means.log, request.observation, outcome.status, outcome.error);
}

/** What the method is given: the request, the handler's context, the caller's tasks. */
export function methodCall(
  request: RoutedRequest,
  means: CallMeans,
  asking: EraAsking,
  send: Notify,
  abort: CallAbort,
): Call {
  const { era, catalog, capabilities, server } = request;
  const { coordination } = means;
  const owned =
    coordination.tasks && capabilities.extensions?.[TASKS_EXTENSION]
      ? coordination.tasks.forCaller(server, request.caller?.subject ?? "", means.waitUntil)
      : undefined;
  return {
    era,
    catalog,
    capabilities,
    params: request.params,
    ctx: contextOf(request, means, abort, send, asking),
    seals: means.handles,
    tasks: owned && means.limits ? means.limits.tasks(owned) : owned,
    observation: request.observation,
    access: request.access,
  };
}
