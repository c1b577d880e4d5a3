import type { ServerCapabilities } from "../../../shared/protocol/capabilities.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { Access } from "../../auth/access.ts";
import type { Caller } from "../../auth/bearer.ts";
import type { ReplyMode } from "../../http/accept.ts";
import type { Seals } from "../context/handles.ts";
import type { Catalog } from "../catalog/catalog.ts";
import type { EraAdapter } from "../era/era.ts";
import { callerIdentity } from "../context/address.ts";
import type { RequestLogger } from "../observe/log.ts";
import type { Observation } from "../observe/trace.ts";
import type { CallerLimits, Coordination } from "../ports.ts";
import type { Cancel, RequestInfo } from "../context/context.ts";

/** What a routed request is: its era and envelope, the server it asks and what that offers, who asks, how. */
export type RoutedRequest = {
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
  headers: Headers;
  /** Its signal aborts when the client goes away (read only by calls that need it). */
  client: Cancel;
  mode: ReplyMode;
  /** What the request's log line will say, gathered as it is served. */
  observation: Observation;
};

/** What a call may use: the Worker's side, sealing, its reply's bounds, its log, the caller's limits. */
export type CallMeans = {
  env: Cloudflare.Env;
  waitUntil(promise: Promise<unknown>): void;
  coordination: Coordination;
  handles: Seals;
  keepAliveMs: number;
  /** Bytes an SSE reply may hold unread before the client counts as gone. */
  sseBufferBytes: number;
  listenMaxMs: number;
  /** Where the request's log line goes when the call is over; undefined when nothing logs. */
  log: RequestLogger | undefined;
  /** The caller's limits here; undefined when nothing counts them. */
  limits: CallerLimits | undefined;
};

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
