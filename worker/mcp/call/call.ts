import { TASKS_EXTENSION, type ServerCapabilities } from "../../../shared/protocol/capabilities.ts";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { LogLevel } from "../../../shared/protocol/meta.ts";
import type { Access } from "../../auth/policy.ts";
import type { Caller } from "../../auth/bearer.ts";
import type { ReplyMode } from "../../http/accept.ts";
import { SSE_HEADERS, SseWriter, type SseSettings } from "../../http/sse.ts";
import type { Handles } from "../../state/handles.ts";
import type { Catalog } from "../catalog/catalog.ts";
import type { AskingSetup, EraAdapter, EraAsking } from "../era/era.ts";
import { InputRequiredSignal } from "./input/answers.ts";
import type { Listening, MethodHandler, Result } from "../methods/method.ts";
import { addressKey } from "../request/address.ts";
import { callerIdentity, type CallerLimits } from "../request/limits.ts";
import { logRequest, type RequestLogger } from "../observe/log.ts";
import type { Observation } from "../observe/trace.ts";
import type { Coordination } from "../ports.ts";
import { failure } from "../request/errors.ts";
import { respond, serialized, type Outcome } from "../request/reply.ts";
import { RawResult } from "../results/ready.ts";
import type {
  Asking,
  Cancel,
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
  /** Who may do what on this endpoint (tools/list shows each caller what it may call). */
  access: Access | undefined;
  /**
   * Whose calls a `notifications/cancelled` with this request's id would stop (see
   * `cancellationKey`); undefined: no other request can cancel this one.
   */
  cancellationKey: string | undefined;
  /**
   * Whether the request answers an earlier round (2026 `inputResponses` or `requestState`):
   * then its input is opened, and checked, before the handler runs; otherwise only when the
   * handler first asks.
   */
  answers: boolean;
  handles: Handles;
  headers: Headers;
  /** Its signal aborts when the client goes away (read only by calls that need it). */
  client: Cancel;
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
  /** Where that line goes when the call is over; undefined when nothing logs. */
  log: RequestLogger | undefined;
  /** The caller's limits here; undefined when nothing counts them. */
  limits: CallerLimits | undefined;
};

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
 * from another request), and starts the handler. Resolves with the response: a stream from the
 * handler's first notification, else the whole reply once the handler is done. The call then
 * ends its reply and writes the request's log line; a failure is an error outcome of the
 * request's era, never a rejection.
 */
export async function startCall(route: Method, calling: Calling): Promise<Response | Outcome> {
  const { era, info, params, handles, coordination } = calling;
  const abort = new CallAbort(calling.client);
  const reply = new Reply(
    calling.mode,
    { keepAliveMs: calling.keepAliveMs, maxBufferedBytes: calling.sseBufferBytes },
    abort,
  );
  let asking: EraAsking;
  if (route.asks) {
    const setup: AskingSetup = {
      method: info.method,
      params,
      info,
      handles,
      send: reply.send,
      cancel: abort,
      coordination,
    };
    asking = calling.answers ? await era.asking(setup) : askingOnDemand(era, setup);
  } else asking = refused(info.method);
  void run(route, calling, asking, reply, abort);
  const first = await reply.first;
  // A whole reply's Response is built here, where it is returned, and no object of the call
  // holds it: workerd keeps a copy of the body until the Response is collected, and Responses
  // the Reply held piled up until V8's full collection (tools/list with 1000 tools grew workerd
  // to 2 GiB in seconds; built here it stays near 150 MiB).
  return first instanceof Response ? first : respond(first, calling.mode, calling.handed);
}

/**
 * A call's cancellation. The handler's signal (`ctx.signal`) is made when something first reads
 * it, and only then tied to the request's signal: most calls never read it, and in workerd the
 * request's signal, an AbortController and a listener are native objects made per call (with
 * the body read, what this saved took an echo call's CPU down by a tenth). The call counts as
 * aborted once the client has gone away (the request's signal), has closed or stopped reading
 * its stream, or another request has cancelled it, whether or not its signal was made.
 */
class CallAbort {
  #controller: AbortController | undefined;
  #reason: Error | undefined;
  /** The request's signal, once read. */
  #request: AbortSignal | undefined;
  #gone: (() => void) | undefined;
  #over = false;

  /** `client`: where the request's signal is read from (the framed POST). */
  constructor(private readonly client: Cancel) {}

  /** The handler's signal: aborted with the call, from the moment it is made. */
  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = (this.#controller = new AbortController());
    if (this.#reason) controller.abort(this.#reason);
    else if (!this.#over) {
      const request = this.#requestSignal();
      if (request.aborted) this.clientGone();
      else {
        this.#gone = () => this.clientGone();
        request.addEventListener("abort", this.#gone, { once: true });
      }
    }
    return controller.signal;
  }

  get aborted(): boolean {
    return this.#reason !== undefined || this.#requestSignal().aborted;
  }

  abort(reason: Error): void {
    if (this.#reason) return;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }

  clientGone(): void {
    this.abort(new Error("The client closed the request."));
  }

  /** The call is over: the request's signal no longer reaches it. */
  release(): void {
    this.#over = true;
    if (this.#gone) this.#requestSignal().removeEventListener("abort", this.#gone);
    this.#gone = undefined;
  }

  #requestSignal(): AbortSignal {
    return (this.#request ??= this.client.signal);
  }
}

/**
 * `ctx.input` and `ctx.relay` of a request that answers no earlier round, set up by the era
 * only when the handler first asks (most calls never do). Its members are bound: the context
 * hands them to the handler on their own.
 */
function askingOnDemand(era: EraAdapter, setup: AskingSetup): EraAsking {
  const demand = new Demand(era, setup);
  // Methods of a literal, not arrows: name-keeping bundlers would rename arrows per request.
  return {
    async input(requests) {
      return (await demand.open()).input(requests);
    },
    relay: {
      state: undefined,
      responses: {},
      async ask(requests, next) {
        return (await demand.open()).relay.ask(requests, next);
      },
    },
    // Only asking ends a round, so the era's asking is open by the time this is reached.
    async inputRequired(signal) {
      const asking = await demand.open();
      if (!asking.inputRequired) throw signal;
      return asking.inputRequired(signal);
    },
  };
}

/** The era's asking for one request, set up on first use. */
class Demand {
  #opened: Promise<EraAsking> | undefined;

  constructor(
    private readonly era: EraAdapter,
    private readonly setup: AskingSetup,
  ) {}

  open(): Promise<EraAsking> {
    return (this.#opened ??= this.era.asking(this.setup));
  }
}

/** A listen request as its stream sees it: contexts that live as long as the stream. */
export function listening(calling: Calling): Listening {
  const asking = refused(calling.info.method);
  return {
    ...calling,
    subject: calling.caller?.subject ?? "",
    context: (signal) => contextOf(calling, { signal }, () => false, asking),
  };
}

/** The handler's context for this request, with its notification channel and its input. */
function contextOf(calling: Calling, cancel: Cancel, send: Notify, asking: Asking) {
  const { era, info } = calling;
  return createContext({
    request: info,
    env: calling.env,
    waitUntil: calling.waitUntil,
    send,
    cancel,
    caller: calling.caller,
    headers: calling.headers,
    handles: calling.handles,
    notify: notifierFor(calling.coordination.listen, calling.server),
    asking,
    logs(level) {
      return era.logs(level, info);
    },
  });
}

/**
 * For calls that may run long, aborts the call when another request cancels it; returns what
 * stops watching once the call is over.
 */
function watchCancel(route: Method, calling: Calling, abort: CallAbort): (() => void) | undefined {
  const { coordination, cancellationKey } = calling;
  if (!route.asks || !coordination.cancellation || cancellationKey === undefined) return undefined;
  return coordination.cancellation.watch(cancellationKey, calling.info.id, (reason) =>
    abort.abort(new Error(reason)),
  );
}

/** Runs the handler to its outcome, ends the reply with it, and logs the request. */
async function run(
  route: Method,
  calling: Calling,
  asking: EraAsking,
  reply: Reply,
  abort: CallAbort,
): Promise<void> {
  const stopWatching = watchCancel(route, calling, abort);
  let outcome: Outcome;
  try {
    outcome = await outcomeOf(route, calling, asking, reply, abort);
  } finally {
    stopWatching?.();
    abort.release();
  }
  reply.end(outcome);
  logRequest(calling.log, calling.observation, outcome.status, outcome.error);
}

async function outcomeOf(
  route: Method,
  calling: Calling,
  asking: EraAsking,
  reply: Reply,
  abort: CallAbort,
): Promise<Outcome> {
  const { era, info, catalog, capabilities, coordination, server } = calling;
  try {
    const ctx = contextOf(calling, abort, reply.send, asking);
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
        access: calling.access,
      });
    } catch (error) {
      // A handler still missing answers ends this round (2026), where the era has rounds.
      if (!(error instanceof InputRequiredSignal) || !asking.inputRequired) throw error;
      result = await asking.inputRequired(error);
    }
    const headers = era.resultHeaders(info);
    const extra = headers ? { headers } : {};
    if (result instanceof RawResult) {
      const head = `{"jsonrpc":"2.0","id":${JSON.stringify(info.id)},"result":`;
      // The text is joined only if something reads it (a stream, a handed outcome); a JSON
      // response is spliced from the kept bytes.
      const message = `${head}${result.json}}`;
      const kept = result.bytes ? { kept: { head, result: result.bytes } } : {};
      return { message, ...kept, status: 200, ...extra };
    }
    // A caller that takes the outcome as it is gets the response object.
    const message = calling.handed
      ? era.resultMessage(result, info.id, catalog)
      : era.result(result, info.id, catalog);
    return { message, status: 200, ...extra };
  } catch (error) {
    return failure(error, info.id, era, calling.observation);
  }
}

/**
 * The call's reply while it runs: an SSE stream from the handler's first notification (when
 * `Accept` allows one), else nothing until the outcome, which the respond stage frames whole.
 * Closing that stream, or leaving too much of it unread, aborts the call; nothing is sent after
 * that.
 */
class Reply {
  /** The stream's response once the handler sends before its outcome, else the outcome. */
  readonly first: Promise<Response | Outcome>;
  /** Sends a message before the response; false when the client cannot receive it. */
  readonly send: Notify;
  #settle!: (first: Response | Outcome) => void;
  #stream: SseWriter | undefined;

  constructor(
    private readonly mode: ReplyMode,
    private readonly sse: SseSettings,
    private readonly abort: CallAbort,
  ) {
    this.first = new Promise((resolve) => (this.#settle = resolve));
    // Assigned here rather than as an arrow property, which name-keeping bundlers rename per call.
    this.send = (message) => this.#send(message);
  }

  #send(message: JsonObject): boolean {
    if (this.mode === "json-only" || this.abort.aborted) return false;
    if (!this.#stream) {
      const writer = new SseWriter(this.sse, () =>
        this.abort.abort(new Error("The client closed the stream.")),
      );
      this.#settle(new Response(writer.readable, { headers: SSE_HEADERS }));
      this.#stream = writer;
    }
    this.#stream.send(JSON.stringify(message));
    return true;
  }

  /** Ends the reply with the call's outcome: last on the stream, or as the whole reply. */
  end(outcome: Outcome): void {
    if (!this.#stream) return this.#settle(outcome);
    if (!this.abort.aborted) this.#stream.send(serialized(outcome.message));
    this.#stream.close();
  }
}

/**
 * Whose request ids these are, for cancelling a call from another request: the server, the
 * caller (its subject, or for an anonymous caller its address), and the session id its 2025
 * `initialize` was given (`sessionId`, read by the era). Request ids are unique only within a
 * session: two windows of one user both start at 1, so the session is part of every key. An
 * anonymous caller without a session id has no key (callers behind one address, an office NAT,
 * share it: the call cannot be cancelled by another request, and a cancel reaches nothing); an
 * authenticated one without a session id has its own key, apart from its sessions. A
 * cancellation never reaches a call of another server.
 */
export function cancellationKey(
  server: string,
  caller: Caller | undefined,
  headers: Headers,
  sessionId: string | undefined,
): string | undefined {
  if (!caller && sessionId === undefined) return undefined;
  return `${server}\n${callerIdentity(caller, headers)}\n${sessionId ?? ""}`;
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
export function createContext(parts: ContextParts): HandlerContext {
  return new CallContext(parts);
}

type ContextParts = {
  request: RequestInfo;
  env: Cloudflare.Env;
  waitUntil: (promise: Promise<unknown>) => void;
  send: Notify;
  /** Where `ctx.signal` comes from, read when the handler first reads it. */
  cancel: Cancel;
  caller: Caller | undefined;
  /** The request's headers, when the context is for a request (a task's run is not). */
  headers?: Headers;
  handles: Handles;
  notify: ChangeNotifier;
  asking: Asking;
  logs: (level: LogLevel) => boolean;
};

/**
 * A handler's context. A class, so that `signal` is a getter of its prototype: a getter in an
 * object literal makes V8 build every such object as a slow dictionary (creating and spreading
 * one costs about a hundred times a plain one). Everything else is an own property, so a
 * handler may take the context apart (`const { progress, signal } = ctx`).
 */
class CallContext implements HandlerContext {
  readonly request: RequestInfo;
  readonly env: Cloudflare.Env;
  readonly waitUntil: (promise: Promise<unknown>) => void;
  readonly caller: Caller | undefined;
  readonly handles: Handles;
  readonly input: HandlerContext["input"];
  readonly relay: HandlerContext["relay"];
  readonly notify: ChangeNotifier;
  readonly progress: HandlerContext["progress"];
  readonly log: HandlerContext["log"];
  readonly #cancel: Cancel;
  readonly #headers: Headers | undefined;

  /** See `anonymousAddress`. */
  static anonymousAddress(ctx: HandlerContext): string | undefined {
    if (!(ctx instanceof CallContext) || ctx.caller) return undefined;
    const address = ctx.#headers?.get("CF-Connecting-IP");
    return address ? addressKey(address) : undefined;
  }

  constructor(parts: ContextParts) {
    const { request, send, logs } = parts;
    const { progressToken } = request;
    this.request = request;
    this.env = parts.env;
    this.waitUntil = parts.waitUntil;
    this.caller = parts.caller;
    this.handles = parts.handles;
    this.input = parts.asking.input;
    this.relay = parts.asking.relay;
    this.notify = parts.notify;
    this.#cancel = parts.cancel;
    this.#headers = parts.headers;
    let last = -Infinity;
    // Assigned here rather than as arrow properties, which name-keeping bundlers rename per call.
    this.progress = (progress, total, message) => {
      if (progressToken === undefined || !(progress > last)) return;
      last = progress;
      const params = {
        progressToken,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      };
      send({ jsonrpc: "2.0", method: "notifications/progress", params });
    };
    this.log = (level, data, logger) => {
      if (!logs(level)) return;
      const params = { level, ...(logger === undefined ? {} : { logger }), data };
      send({ jsonrpc: "2.0", method: "notifications/message", params });
    };
  }

  get signal(): AbortSignal {
    return this.#cancel.signal;
  }
}

/**
 * Where an anonymous caller of this request called from, as its limits count it (an IPv6
 * address by its /64): what a proxy of this Worker (the hub) passes on to the servers it calls
 * in-process, so that they count each of its anonymous callers apart. Undefined for a caller
 * with a token, a request without an address, or a context not made for a request.
 */
export const anonymousAddress = (ctx: HandlerContext): string | undefined =>
  CallContext.anonymousAddress(ctx);

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
