import { parseMessage, peekId, type JsonRpcMessage } from "../../shared/jsonrpc.ts";
import type { JsonRpcId } from "../../shared/protocol/messages.ts";
import type { Caller } from "../auth/bearer.ts";
import type { Access } from "../auth/policy.ts";
import type { ReplyMode } from "../http/accept.ts";
import { handleOwner, Handles } from "../state/handles.ts";
import type { Keyring } from "../state/keyring.ts";
import { Sealer } from "../state/sealer.ts";
import { listening, startCall } from "./call/call.ts";
import { callerKey } from "./call/cancel.ts";
import type { Served } from "./define/server.ts";
import { eraOf } from "./era/index.ts";
import type { Coordination } from "./ports.ts";
import { takeNotification, takeResponse } from "./request/client-messages.ts";
import { failure } from "./request/errors.ts";
import { frame } from "./request/frame.ts";
import {
  admit,
  admitUnnamed,
  mutatingIn,
  targetOfBody,
  targetOfHeaders,
  toolFilter,
} from "./request/gate.ts";
import { jsonResponse, respond } from "./request/reply.ts";
import { routeOf } from "./request/route.ts";

/** Limits and timings of one endpoint, settled once per isolate. */
export type Settings = {
  /** Largest accepted body in bytes. */
  maxBodyBytes: number;
  /** Interval of SSE keep-alive comments (0 turns them off). */
  keepAliveMs: number;
  /** How long a listen stream stays open before the server ends it gracefully. */
  listenMaxMs: number;
};

/** What serving a message needs besides the message: the Worker's side of the request. */
export type Runtime = {
  env: Cloudflare.Env;
  waitUntil(promise: Promise<unknown>): void;
  coordination: Coordination;
  /** The keys that seal handles, cursors and requestState. */
  keyring: Keyring;
  settings: Settings;
  /**
   * Who may do what on this endpoint (anonymous access, policy rules); without it, everything
   * is allowed (a proxy that decided already).
   */
  access?: Access;
};

/** One JSON-RPC message as framing left it, with what the pipeline still reads of its request. */
export type Framed = {
  message: JsonRpcMessage;
  /** The request's headers: its routing headers, and where it came from. */
  headers: Headers;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
  /** How the reply may be framed (`Accept`). */
  mode: ReplyMode;
  /** Who sent it, once authenticated; undefined for an anonymous caller. */
  caller: Caller | undefined;
};

/**
 * Serves one POST to an MCP endpoint whose caller is known: frame, then the message. Every
 * failure before the era is known is answered here, with no era.
 */
export async function servePost(
  server: Served,
  request: Request,
  caller: Caller | undefined,
  runtime: Runtime,
): Promise<Response> {
  let id: JsonRpcId | undefined;
  try {
    // A gateway's decision: on the routing headers, before the body is read. The body is
    // checked again below (2025 requests carry no routing headers; a 2026 body that disagrees
    // with its headers is refused by the envelope).
    const target = runtime.access && targetOfHeaders(request.headers);
    if (target) {
      const catalog = target.method === "tools/call" ? await server.catalogFor(runtime) : undefined;
      admit(runtime.access, caller, target, catalog ? mutatingIn(catalog) : () => false);
    } else admitUnnamed(runtime.access, caller);
    const { value, mode } = await frame(request, runtime.settings.maxBodyBytes);
    id = peekId(value);
    const message = parseMessage(value);
    const { headers, signal } = request;
    return await serveMessage(server, { message, headers, signal, mode, caller }, runtime);
  } catch (error) {
    return jsonResponse(failure(error, id));
  }
}

/**
 * Serves one framed JSON-RPC message, the pipeline after framing: envelope, route, call,
 * respond. A proxy that already holds a parsed message (a hub calling a server of the same
 * isolate) enters here. Notifications are answered 202; a client's responses go to the call
 * waiting for them.
 */
export async function serveMessage(
  server: Served,
  framed: Framed,
  runtime: Runtime,
): Promise<Response> {
  const { message, headers, caller } = framed;
  const { coordination, access } = runtime;
  if (message.kind === "notification") {
    admit(access, caller, { method: message.message.method }, () => false);
    return takeNotification(message.message, callerKey(server.name, caller, headers), coordination);
  }
  if (message.kind === "response") return takeResponse(message.message, coordination);
  const request = message.message;
  // The era is asked once; every stage after this calls it.
  const era = eraOf(request, headers);
  try {
    const catalog = await server.catalogFor(runtime);
    const envelope = era.envelope(request, headers, catalog);
    // The decision that counts: on the body, in every era.
    admit(access, caller, targetOfBody(request.method, request.params), mutatingIn(catalog));
    const info = { ...envelope, id: request.id, method: request.method, era: era.name };
    const capabilities = era.capabilities(catalog, coordination);
    const route = routeOf(era, request.method, { capabilities, catalog, coordination });
    // Everything the call may use, and the listen route's streams too.
    const calling = {
      era,
      info,
      params: request.params ?? {},
      server: server.name,
      catalog,
      capabilities,
      caller,
      mayCall: toolFilter(access, caller, catalog),
      handles: new Handles(new Sealer(runtime.keyring), handleOwner(server.name, caller?.subject)),
      headers,
      signal: framed.signal,
      mode: framed.mode,
      keepAliveMs: runtime.settings.keepAliveMs,
      listenMaxMs: runtime.settings.listenMaxMs,
      env: runtime.env,
      waitUntil: runtime.waitUntil,
      coordination,
    };
    if ("stream" in route) return await route.stream(listening(calling));
    const { reply, outcome } = await startCall(route, calling);
    // Failures past this point are outcomes: the reply frames them as JSON or SSE.
    return await respond(reply, outcome);
  } catch (error) {
    return jsonResponse(failure(error, request.id, era));
  }
}
