import { ErrorCode } from "../../protocol/errors.ts";
import { Header } from "../../protocol/headers.ts";
import { MetaKey } from "../../protocol/meta.ts";
import { hasRpcCode, McpError } from "../errors.ts";
import { paramHeaderValues } from "../../protocol/header-declarations.ts";
import { postHeaders } from "../transport.ts";
import type { ClientEra } from "./era.ts";
import { modernTasks } from "./modern-tasks.ts";

/**
 * The 2026-07-28 era: every request carries the full `_meta` envelope and routing headers that
 * mirror its body (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`); closing a stream cancels it.
 */
export const modern: ClientEra = {
  name: "modern",
  traits: { label: "2026 stateless", handshake: false, listen: true },
  envelope(conn, params, extras) {
    return {
      ...params,
      _meta: {
        ...extras.meta,
        [MetaKey.protocolVersion]: conn.protocolVersion,
        [MetaKey.clientInfo]: conn.clientInfo,
        [MetaKey.clientCapabilities]: conn.capabilities,
        ...(extras.progressToken === undefined
          ? {}
          : { [MetaKey.progressToken]: extras.progressToken }),
        ...(extras.logLevel === undefined ? {} : { [MetaKey.logLevel]: extras.logLevel }),
      },
    };
  },
  headers(conn, routing) {
    const headers = postHeaders(conn);
    if (routing.method !== undefined) headers.set(Header.method, routing.method);
    if (routing.name !== undefined) headers.set(Header.name, routing.name);
    for (const [suffix, value] of Object.entries(routing.params ?? {})) {
      headers.set(`${Header.paramPrefix}${suffix}`, value);
    }
    return headers;
  },
  // Closing the request's stream is the cancellation: nothing more to send.
  async aborted() {},
  // The level travels in each request's `_meta`.
  async setLogLevel() {},
  require2026() {},
  discover(fetch) {
    return fetch();
  },
  async paramHeaders(declared, args) {
    const params = await declared();
    return params ? paramHeaderValues(params, args) : {};
  },
  listedTools(reply, record) {
    return record(reply);
  },
  // A header mismatch means the tool's declarations changed since they were listed.
  staleTools(error) {
    return hasRpcCode(error, ErrorCode.HeaderMismatch);
  },
  tasks: modernTasks,
  require2025(message, context) {
    throw new McpError(message, { kind: "client", ...context });
  },
};
