import { TASKS_EXTENSION, type ServerCapabilities } from "../../../shared/protocol/capabilities.ts";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { LogLevel } from "../../../shared/protocol/meta.ts";
import type { Caller } from "../../auth/bearer.ts";
import type { ReplyMode } from "../../http/accept.ts";
import type { Handles } from "../../state/handles.ts";
import type { Catalog } from "../catalog/catalog.ts";
import type { EraAdapter, EraAsking } from "../era/era.ts";
import { InputRequiredSignal } from "./input/answers.ts";
import type { Listening, MethodHandler, Result } from "../methods/method.ts";
import { callerIdentity, type CallerLimits } from "../request/limits.ts";
import type { Observation } from "../observe/log.ts";
import type { Coordination } from "../ports.ts";
import { failure } from "../request/errors.ts";
import { Reply, type Outcome } from "../request/reply.ts";
import { RawResult } from "../results/ready.ts";
import type {
  Asking,
  ChangeNotifier,
  HandlerContext,
  ListenEvent,
  Notify,
  RequestInfo,
} from "./context.ts";

/** One routed request, with everything its handler may use. */
export type Calling = {
  era: EraAdapter;
  info: RequestInfo;
  params: JsonObject;
  server: string;
  catalog: Catalog;
  capabilities: ServerCapabilities;
  caller: Caller | undefined;
  /**
   * Whose calls a `notifications/cancelled` with this request's id would stop (see
   * `cancellationKey`); undefined: no other request can cancel this one.
   */
  cancellationKey: string | undefined;
  /** Which tools this caller may call, when not every one (tools/list shows only those). */
  mayCall: ((tool: string) => boolean) | undefined;
  handles: Handles;
  headers: Headers;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
  mode: ReplyMode;
  /** The caller is in this isolate and takes a whole reply as its outcome (see `Reply`). */
  handed: boolean;
  keepAliveMs: number;
  /** Bytes an SSE reply may hold unread before the client counts as gone. */
  sseBufferBytes: number;
  listenMaxMs: number;
  env: Cloudflare.Env;
  waitUntil(promise: Promise<unknown>): void;
  coordination: Coordination;
  /** What the request's log line will say, gathered as it is served. */
  observation: Observation;
  /** The caller's limits here; undefined when nothing counts them. */
  limits: CallerLimits | undefined;
};

/** A call under way: the reply it talks through, and the outcome it will end with. */
export type Running = { reply: Reply; outcome: Promise<Outcome> };

/** A route's handler, answered once; `asks`: it may ask the client for input. */
type Method = { run: MethodHandler; asks?: true };

/** `ctx.input` in the handlers of methods that cannot ask the client for input, by method. */
const REFUSED = new Map<string, Asking>();

/** `ctx.input` in the handler of a method that cannot ask the client for input. */
function refused(method: string): Asking {
  let asking = REFUSED.get(method);
  if (!asking) {
    asking = refuseAsking(
      `Asking the client for input is not available in ${method} handlers (only tools/call, prompts/get and resources/read).`,
    );
    // Routed methods only reach here, so the table stays as small as the method tables.
    REFUSED.set(method, asking);
  }
  return asking;
}

/**
 * The call stage: prepares how the handler may ask for input (where that can fail, before any
 * reply), ties the call's lifetime to the client (going away, closing the stream, cancelling
 * from another request), and starts the handler. Its outcome never rejects: a failure is an
 * error outcome of the request's era.
 */
export async function startCall(route: Method, calling: Calling): Promise<Running> {
  const { era, info, params, handles, coordination } = calling;
  const abort = new AbortController();
  const reply = new Reply(
    calling.mode,
    { keepAliveMs: calling.keepAliveMs, maxBufferedBytes: calling.sseBufferBytes },
    abort,
    calling.handed,
  );
  const asking: EraAsking = route.asks
    ? await era.asking({
        method: info.method,
        params,
        info,
        handles,
        send: reply.send,
        signal: abort.signal,
        coordination,
      })
    : refused(info.method);
  const release = bind(route, calling, reply, abort);
  const outcome = run(route, calling, asking, reply, abort.signal).finally(release);
  return { reply, outcome };
}

/** A listen request as its stream sees it: contexts that live as long as the stream. */
export function listening(calling: Calling): Listening {
  const asking = refused(calling.info.method);
  return {
    ...calling,
    subject: calling.caller?.subject ?? "",
    context: (signal) => contextOf(calling, signal, () => false, asking),
  };
}

/** The handler's context for this request, with its notification channel and its input. */
function contextOf(calling: Calling, signal: AbortSignal, send: Notify, asking: Asking) {
  const { era, info } = calling;
  return createContext({
    request: info,
    env: calling.env,
    waitUntil: calling.waitUntil,
    send,
    signal,
    caller: calling.caller,
    handles: calling.handles,
    notify: notifierFor(calling.coordination.listen, calling.server),
    asking,
    logs(level) {
      return era.logs(level, info);
    },
  });
}

/**
 * Aborts the call when the client goes away or, for calls that may run long, when another
 * request cancels it; returns what undoes that once the call is over.
 */
function bind(route: Method, calling: Calling, reply: Reply, abort: AbortController): () => void {
  const { signal, coordination, cancellationKey } = calling;
  const onGone = reply.gone;
  if (signal.aborted) onGone();
  else signal.addEventListener("abort", onGone, { once: true });
  const stopWatching =
    route.asks && coordination.cancellation && cancellationKey !== undefined
      ? coordination.cancellation.watch(cancellationKey, calling.info.id, (reason) =>
          abort.abort(new Error(reason)),
        )
      : undefined;
  return () => {
    signal.removeEventListener("abort", onGone);
    stopWatching?.();
  };
}

async function run(
  route: Method,
  calling: Calling,
  asking: EraAsking,
  reply: Reply,
  signal: AbortSignal,
): Promise<Outcome> {
  const { era, info, catalog, capabilities, coordination, server } = calling;
  try {
    const ctx = contextOf(calling, signal, reply.send, asking);
    const owned =
      coordination.tasks && capabilities.extensions?.[TASKS_EXTENSION]
        ? coordination.tasks.forCaller(server, calling.caller?.subject ?? "")
        : undefined;
    const tasks = owned && calling.limits ? calling.limits.tasks(owned) : owned;
    let result: Result;
    try {
      result = await route.run({
        era,
        catalog,
        capabilities,
        params: calling.params,
        ctx,
        tasks,
        observation: calling.observation,
        mayCall: calling.mayCall,
      });
    } catch (error) {
      // A handler still missing answers ends this round (2026), where the era has rounds.
      if (!(error instanceof InputRequiredSignal) || !asking.inputRequired) throw error;
      result = await asking.inputRequired(error);
    }
    // A caller that takes the outcome as it is gets the response object, unless it is text already.
    const message =
      result instanceof RawResult
        ? `{"jsonrpc":"2.0","id":${JSON.stringify(info.id)},"result":${result.json}}`
        : reply.handed
          ? era.resultMessage(result, info.id, catalog)
          : era.result(result, info.id, catalog);
    const headers = era.resultHeaders(info.method);
    return { message, status: 200, ...(headers ? { headers } : {}) };
  } catch (error) {
    return failure(error, info.id, era, calling.observation);
  }
}

/**
 * Whose request ids these are, for cancelling a call from another request: the server, and the
 * caller's subject or, for an anonymous caller, its address and the session id its 2025
 * `initialize` was given (`sessionId`, read by the era). Request ids are small integers that
 * collide, and callers behind one address (an office NAT) share it, so the address alone would
 * let one anonymous caller cancel another's calls: without a session id there is no key (the
 * call cannot be cancelled by another request, and a cancel reaches nothing). A cancellation
 * never reaches a call of another server.
 */
export function cancellationKey(
  server: string,
  caller: Caller | undefined,
  headers: Headers,
  sessionId: string | undefined,
): string | undefined {
  if (caller) return `${server}\n${callerIdentity(caller, headers)}`;
  if (sessionId === undefined) return undefined;
  return `${server}\n${callerIdentity(undefined, headers)}\n${sessionId}`;
}

/** `ctx.input` and `ctx.relay` in a handler that cannot ask the client for input, and why. */
export function refuseAsking(reason: string): Asking {
  const refuse = () => Promise.reject(new RpcError(ErrorCode.InternalError, reason));
  return { input: refuse, relay: { state: undefined, responses: {}, ask: refuse } };
}

/**
 * Builds a handler's context around the request's notification channel. Progress goes out only
 * with a progress token and only when it increases; log messages only when `logs` lets their
 * level through (the era decides).
 */
export function createContext(parts: {
  request: RequestInfo;
  env: Cloudflare.Env;
  waitUntil: (promise: Promise<unknown>) => void;
  send: Notify;
  signal: AbortSignal;
  caller: Caller | undefined;
  handles: Handles;
  notify: ChangeNotifier;
  asking: Asking;
  logs: (level: LogLevel) => boolean;
}): HandlerContext {
  let last = -Infinity;
  const { request, send, logs } = parts;
  const { progressToken } = request;
  return {
    request,
    env: parts.env,
    waitUntil: parts.waitUntil,
    signal: parts.signal,
    caller: parts.caller,
    handles: parts.handles,
    input: parts.asking.input,
    relay: parts.asking.relay,
    notify: parts.notify,
    progress(progress, total, message) {
      if (progressToken === undefined || !(progress > last)) return;
      last = progress;
      const params = {
        progressToken,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      };
      send({ jsonrpc: "2.0", method: "notifications/progress", params });
    },
    log(level, data, logger) {
      if (!logs(level)) return;
      const params = { level, ...(logger === undefined ? {} : { logger }), data };
      send({ jsonrpc: "2.0", method: "notifications/message", params });
    },
  };
}

type Publisher = { publish(server: string, event: ListenEvent): Promise<void> };

/** Without a listen hub there is nobody to tell. */
const SILENT: ChangeNotifier = {
  async toolsListChanged() {},
  async promptsListChanged() {},
  async resourcesListChanged() {},
  async resourceUpdated() {},
};
const notifiers = new WeakMap<Publisher, Map<string, ChangeNotifier>>();

/** A notifier publishing to the server's listen hub, made once per hub and server. */
export function notifierFor(hub: Publisher | undefined, server: string): ChangeNotifier {
  if (!hub) return SILENT;
  let byServer = notifiers.get(hub);
  if (!byServer) notifiers.set(hub, (byServer = new Map()));
  let notifier = byServer.get(server);
  if (!notifier) byServer.set(server, (notifier = publishing(hub, server)));
  return notifier;
}

function publishing(hub: Publisher, server: string): ChangeNotifier {
  const publish = async (event: ListenEvent) => {
    await hub.publish(server, event);
  };
  return {
    toolsListChanged: () => publish({ kind: "toolsListChanged" }),
    promptsListChanged: () => publish({ kind: "promptsListChanged" }),
    resourcesListChanged: () => publish({ kind: "resourcesListChanged" }),
    resourceUpdated: (uri) => publish({ kind: "resourceUpdated", uri }),
  };
}
