import { parseMessage, peekId, type JsonRpcMessage } from "../../shared/jsonrpc.ts";
import { routingTarget } from "../../shared/protocol/headers.ts";
import type { JsonRpcId } from "../../shared/protocol/messages.ts";
import type { Era } from "../../shared/protocol/versions.ts";
import {
  admit,
  admitRouted,
  admitsEveryone,
  targetOfBody,
  type ToolAccess,
} from "../auth/admit.ts";
import type { Caller } from "../auth/bearer.ts";
import type { ReplyMode } from "../http/accept.ts";
import { listening, startCall } from "./call/call.ts";
import { cancellationKey, type CallMeans, type RoutedRequest } from "./call/calling.ts";
import type { Catalog } from "./catalog/catalog.ts";
import type { Route } from "./methods/method.ts";
import type { Served } from "./server/server.ts";
import type { EraAdapter } from "./era/era.ts";
import { eraOf } from "./era/index.ts";
import { callerIdentity } from "./context/address.ts";
import { UNSEALED } from "./context/handles.ts";
import { sealingOf } from "./define/sealing.ts";
import { logRequest, type RequestLogger } from "./observe/log.ts";
import { observe, type Observation } from "./observe/trace.ts";
import type { Framed, Runtime } from "./runtime.ts";
import type { Envelope, RequestInfo } from "./context/context.ts";
import { takeNotification, takeResponse } from "./request/client-messages.ts";
import { failure } from "./request/errors.ts";
import { frame, frameHeaders } from "./request/frame.ts";
import { httpReply, type Outcome } from "./request/reply.ts";
import type { InProcessCall } from "./request/in-process.ts";
import { routeOf } from "./request/route.ts";

/**
 * A POST's message after framing. Its request's signal is read only when a call needs it (see
 * CallAbort; in workerd reading it costs), through a getter of this class: a getter in an object
 * literal would make V8 build the object as a slow dictionary.
 */
class FramedPost implements Framed {
  constructor(
    readonly message: JsonRpcMessage,
    readonly headers: Headers,
    readonly mode: ReplyMode,
    readonly caller: Caller | undefined,
    private readonly request: { readonly signal: AbortSignal },
  ) {}

  get signal(): AbortSignal {
    return this.request.signal;
  }
}

/**
 * What a handler knows of its request (`ctx.request`): the envelope's parts, and its correlation
 * id and `traceparent` as getters of this class, so the trace behind them is made only when
 * something reads one (a getter in an object literal would make V8 build it as a slow
 * dictionary).
 */
export class ServedInfo implements RequestInfo {
  // The envelope's parts, copied (the optional ones only when present).
  declare readonly protocolVersion: string;
  declare readonly clientCapabilities: Envelope["clientCapabilities"];
  declare readonly clientInfo?: Envelope["clientInfo"];
  declare readonly logLevel?: Envelope["logLevel"];
  declare readonly progressToken?: Envelope["progressToken"];
  readonly #observation: Observation;

  constructor(
    envelope: Envelope,
    readonly id: JsonRpcId,
    readonly method: string,
    readonly era: Era,
    observation: Observation,
  ) {
    Object.assign(this, envelope);
    this.#observation = observation;
  }

  get correlationId(): string {
    return this.#observation.correlationId;
  }

  get traceparent(): string {
    return this.#observation.trace.traceparent;
  }
}

/** Before the catalog is needed: no tool is known, so none is mutating. */
const NO_TOOLS: ToolAccess = {
  mutating: () => false,
  names: () => [],
};

/**
 * Serves one POST to an MCP endpoint whose caller is known: the gate on the routing headers,
 * framing, then the message. Every failure before the era is known is answered here, with no
 * era. A caller of this isolate gives the message itself (an `InProcessCall`): there is no body
 * to read, and framing checks the headers alone. The answer is a stream's response, or an
 * outcome that the edge sending it frames (see `Outcome`).
 */
export async function servePost(
  server: Served,
  request: Request | InProcessCall,
  caller: Caller | undefined,
  runtime: Runtime,
): Promise<Response | Outcome> {
  let id: JsonRpcId | undefined;
  try {
    // A gateway's decision: on the routing headers, before the body is read. The body is
    // decided again after the envelope (2025 requests carry no routing headers; a 2026 body
    // that disagrees with its headers is refused by the envelope). Only a tool call needs the
    // catalog here (whether the tool is read-only), and then brings it to the pipeline.
    let catalog: Catalog | undefined;
    if (!admitsEveryone(runtime.access)) {
      const target = routingTarget(request.headers);
      if (target?.method === "tools/call") catalog = await server.catalogFor(runtime);
      admitRouted(runtime.access, caller, target, catalog ?? NO_TOOLS);
    }
    const { headers } = request;
    let value: unknown;
    let mode: ReplyMode;
    if (!(request instanceof Request)) {
      mode = frameHeaders(headers);
      value = request.message;
    } else {
      const { maxBodyBytes: maxBytes, bodyDeadlineMs: deadlineMs } = runtime.settings;
      ({ value, mode } = await frame(request, { maxBytes, deadlineMs }));
    }
    id = peekId(value);
    const message = parseMessage(value);
    const framed = new FramedPost(message, headers, mode, caller, request);
    return await serveFramed(server, framed, runtime, catalog);
  } catch (error) {
    return failure(error, id);
  }
}

/**
 * Serves one framed JSON-RPC message, the pipeline after framing: envelope, route, call,
 * respond, each asked once, in that order. A proxy that already holds a parsed message (a hub
 * calling a server of the same isolate) enters here, with the server's catalog if it has it.
 * Notifications are answered 202; a client's responses go to the call waiting for them.
 */
export async function serveMessage(
  server: Served,
  framed: Framed,
  runtime: Runtime,
  catalog?: Catalog,
): Promise<Response> {
  return httpReply(await serveFramed(server, framed, runtime, catalog));
}

/** The pipeline after framing: a stream's response, or the outcome its edge frames. */
async function serveFramed(
  server: Served,
  framed: Framed,
  runtime: Runtime,
  catalog: Catalog | undefined,
): Promise<Response | Outcome> {
  const { message, headers, caller } = framed;
  const { coordination, access } = runtime;
  const { name } = server;
  // Rates first: a caller over its limit costs no catalog, no envelope, no call.
  const limits = runtime.limits?.forCaller(callerIdentity(caller, headers));
  let refused: unknown;
  try {
    if (!runtime.forwarded) await limits?.admit(name, toolNameOf(message));
  } catch (error) {
    if (message.kind !== "request") return failure(error);
    refused = error;
  }
  if (message.kind !== "request") return takeClientMessage(message, framed, runtime, name);
  const request = message.message;
  // The era is asked once; every stage after this calls it.
  const era = eraOf(request, headers);
  const observation = observe(name, request.method, request.params, headers);
  observation.era = era.name;
  observation.subject = caller?.subject;
  // A request over its rate is logged like any other refusal (an HTTP 429, answered without
  // its id as the other refusals before the envelope are).
  if (refused !== undefined) return refusal(refused, undefined, era, observation, runtime.log);
  try {
    catalog ??= await server.catalogFor(runtime);
    // Envelope: what the request speaks and what it is offered, in one call of its era.
    const { envelope, capabilities, sessionId, answers } = era.envelope(
      request,
      headers,
      catalog,
      coordination,
    );
    // The decision that counts: on the body, in every era.
    if (!admitsEveryone(access))
      admit(access, caller, targetOfBody(request.method, request.params), catalog);
    const route = routeOf(era, request.method, { capabilities, catalog, coordination });
    const info = new ServedInfo(envelope, request.id, request.method, era.name, observation);
    // What the request is, and what its call (or the listen route's stream) may use.
    const routed: RoutedRequest = {
      era,
      info,
      params: request.params ?? {},
      server: name,
      catalog,
      capabilities,
      caller,
      access,
      cancellationKey: cancellationKey(name, caller, headers, sessionId),
      answers,
      headers,
      client: framed,
      mode: framed.mode,
      observation,
    };
    const means = callMeans(runtime, catalog, name, caller, limits);
    if ("stream" in route) return await serveListen(route, routed, means, runtime);
    // The call ends its reply and logs the request itself (a stream outlives this function).
    return await startCall(route, routed, means);
  } catch (error) {
    return refusal(error, request.id, era, observation, runtime.log);
  }
}

/** A listen request: its stream, held within the caller's limits, then its log line. */
async function serveListen(
  route: Extract<Route, { stream: unknown }>,
  routed: RoutedRequest,
  means: CallMeans,
  runtime: Runtime,
): Promise<Response> {
  const open = () => route.stream(listening(routed, means));
  const { limits } = means;
  const { listenMaxMs } = runtime.settings;
  const response = await (limits && !runtime.forwarded
    ? limits.holdStream(listenMaxMs, runtime.waitUntil, routed.client.signal, open)
    : open());
  logRequest(runtime.log, routed.observation, response.status);
  return response;
}

/**
 * A client's notification (answered 202, a cancellation passed on) or its response to a call of
 * this server waiting for it.
 */
function takeClientMessage(
  message: Exclude<JsonRpcMessage, { kind: "request" }>,
  { headers, caller }: Framed,
  { access, coordination }: Runtime,
  server: string,
): Promise<Response> {
  if (message.kind === "response") return takeResponse(message.message, coordination);
  const notification = message.message;
  admit(access, caller, { method: notification.method }, NO_TOOLS);
  const sessionId = eraOf(notification, headers).sessionId(headers);
  const key = cancellationKey(server, caller, headers, sessionId);
  return takeNotification(notification, key, coordination);
}

/**
 * What a call runs with: the runtime's parts, the caller's handles and limits. A server that
 * seals refuses weak secrets here, before any call (see `sealing`).
 */
export function callMeans(
  runtime: Runtime,
  catalog: Catalog,
  server: string,
  caller: Caller | undefined,
  limits: CallMeans["limits"],
): CallMeans {
  const sealing = sealingOf(catalog.definition);
  const { env, settings } = runtime;
  return {
    env,
    waitUntil: runtime.waitUntil,
    coordination: runtime.coordination,
    handles: sealing
      ? sealing.seals(env, server, caller?.subject ?? "", runtime.local === true)
      : UNSEALED,
    keepAliveMs: settings.keepAliveMs,
    sseBufferBytes: settings.sseBufferBytes,
    listenMaxMs: settings.listenMaxMs,
    log: runtime.log,
    limits,
  };
}

/** A request refused before its call: logged, and answered in the request's era. */
function refusal(
  error: unknown,
  id: JsonRpcId | undefined,
  era: EraAdapter,
  observation: Observation,
  log: RequestLogger | undefined,
): Outcome {
  const outcome = failure(error, id, era, observation);
  logRequest(log, observation, outcome.status, outcome.error);
  return outcome;
}

/** The tool a message calls, for its per-tool rate (checked against the catalog later). */
function toolNameOf(message: JsonRpcMessage): string | undefined {
  if (message.kind !== "request" || message.message.method !== "tools/call") return undefined;
  const name = message.message.params?.["name"];
  return typeof name === "string" ? name : undefined;
}
