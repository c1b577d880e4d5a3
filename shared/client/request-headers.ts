import type { JsonObject } from "../protocol/messages.ts";
import { encodeHeaderValue, Header } from "../protocol/headers.ts";
import { NAME_PARAM } from "../protocol/methods.ts";
import type { Connection } from "./connection.ts";

/** The encoded `Mcp-Name` of a request: its tool or prompt name, resource URI or task id. */
export function mirroredName(method: string, params: JsonObject): string | undefined {
  const member = NAME_PARAM[method];
  const value = member === undefined ? undefined : params[member];
  return typeof value === "string" ? encodeHeaderValue(value) : undefined;
}

/** What a request's routing headers mirror: its method, its name or URI, tool arguments. */
export type Routing = {
  /** Absent for notifications and responses, which carry no `Mcp-Method`. */
  method?: string;
  /** The `Mcp-Name` value, already encoded. */
  name?: string;
  /** `Mcp-Param-*` values by header suffix, already encoded. */
  params?: Readonly<Record<string, string>>;
};

/**
 * Headers for one POST: the caller's own, then the transport's (which win). Modern requests
 * carry the routing headers; legacy ones the negotiated version and the session id.
 */
export function requestHeaders(conn: Connection, routing: Routing): Headers {
  const headers = sessionHeaders(conn);
  headers.set("Content-Type", "application/json");
  headers.set("Accept", "application/json, text/event-stream");
  if (conn.era === "legacy") return headers;
  if (routing.method !== undefined) headers.set(Header.method, routing.method);
  if (routing.name !== undefined) headers.set(Header.name, routing.name);
  for (const [suffix, value] of Object.entries(routing.params ?? {})) {
    headers.set(`${Header.paramPrefix}${suffix}`, value);
  }
  return headers;
}

/**
 * The caller's headers, then the negotiated version and, on a legacy connection, its session
 * id: all a request without a body's routing needs (legacy session teardown).
 */
export function sessionHeaders(conn: Connection): Headers {
  const headers = new Headers(conn.headers);
  if (conn.protocolVersion !== undefined) headers.set(Header.protocolVersion, conn.protocolVersion);
  if (conn.era === "legacy" && conn.sessionId !== undefined)
    headers.set(Header.sessionId, conn.sessionId);
  return headers;
}
