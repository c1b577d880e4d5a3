import type { ClientCapabilities } from "../protocol/capabilities.ts";
import { Header } from "../protocol/headers.ts";
import type { LogLevel } from "../protocol/meta.ts";
import type { Implementation } from "../protocol/primitives.ts";
import type { FetchLike, InputHandlers, SendLike, WireEvent } from "./options.ts";

/** What a connection is made of, fixed for its lifetime (headers can be replaced). */
export type ConnectionInit = {
  url: string;
  fetch: FetchLike;
  send: SendLike | undefined;
  headers: Record<string, string>;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  handlers: InputHandlers;
  onWire: ((event: WireEvent) => void) | undefined;
  /** The most a reply's JSON body or one of its SSE events may weigh (default `MAX_REPLY_BYTES`). */
  maxReplyBytes?: number;
};

/**
 * How much of one reply the client holds by default: a JSON body, or one SSE event. Results of
 * a megabyte are ordinary (a tool returning a file or an image) and this leaves them room many
 * times over, while a server that streams without end is stopped before it exhausts memory.
 */
export const MAX_REPLY_BYTES = 16 * 1024 * 1024;

/**
 * One endpoint as the client speaks to it: where, with which fetch and headers, the version
 * negotiated, and what a 2025 server's session holds (its id, the log level set on it).
 */
export class Connection {
  readonly url: string;
  readonly fetch: FetchLike;
  readonly send: SendLike | undefined;
  headers: Record<string, string>;
  readonly clientInfo: Implementation;
  readonly capabilities: ClientCapabilities;
  readonly handlers: InputHandlers;
  readonly onWire: ((event: WireEvent) => void) | undefined;
  readonly maxReplyBytes: number;
  /** Undefined only while a legacy `initialize` is in flight. */
  protocolVersion: string | undefined;
  sessionId: string | undefined;
  sessionLogLevel: LogLevel | undefined;
  private lastId = 0;

  constructor(init: ConnectionInit) {
    this.url = init.url;
    this.fetch = init.fetch;
    this.send = init.send;
    this.headers = init.headers;
    this.clientInfo = init.clientInfo;
    this.capabilities = init.capabilities;
    this.handlers = init.handlers;
    this.onWire = init.onWire;
    this.maxReplyBytes = init.maxReplyBytes ?? MAX_REPLY_BYTES;
  }

  /** A request id never used before on this connection (retries get new ones too). */
  nextId(): number {
    this.lastId += 1;
    return this.lastId;
  }

  /** The `Authorization` header value, which keys private cache entries. */
  authKey(): string {
    const entry = Object.entries(this.headers).find(
      ([name]) => name.toLowerCase() === "authorization",
    );
    return entry?.[1] ?? "";
  }

  /**
   * The caller's headers, then the negotiated version and the session id a 2025 server gave:
   * all a request needs besides its body's routing (ending a 2025 session needs no more).
   */
  sessionHeaders(): Headers {
    const headers = new Headers(this.headers);
    if (this.protocolVersion !== undefined)
      headers.set(Header.protocolVersion, this.protocolVersion);
    if (this.sessionId !== undefined) headers.set(Header.sessionId, this.sessionId);
    return headers;
  }
}
