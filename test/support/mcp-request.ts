import { MetaKey } from "../../shared/protocol/meta.ts";
import { MODERN_VERSION } from "../../shared/protocol/versions.ts";

export const CLIENT_INFO = { name: "edgemcp-tests", version: "1.0.0" };

type Options = {
  id?: string | number;
  server?: string;
  /** Extra or replacement headers; `null` removes a default header. */
  headers?: Record<string, string | null>;
  /** Extra `_meta` keys, merged over the default envelope; `null` removes a key. */
  meta?: Record<string, unknown>;
  capabilities?: Record<string, unknown>;
};

let nextId = 1;

/** The `Mcp-Name` source value for methods that need one. */
function nameOf(method: string, params: Record<string, unknown>): unknown {
  if (method === "tools/call" || method === "prompts/get") return params.name;
  if (method === "resources/read") return params.uri;
  return undefined;
}

/** The JSON-RPC body of a 2026-07-28 request with the standard `_meta` envelope. */
export function modernBody(
  method: string,
  params: Record<string, unknown> = {},
  options: Options = {},
) {
  const meta: Record<string, unknown> = {
    [MetaKey.protocolVersion]: MODERN_VERSION,
    [MetaKey.clientInfo]: CLIENT_INFO,
    [MetaKey.clientCapabilities]: options.capabilities ?? {},
  };
  for (const [key, value] of Object.entries(options.meta ?? {})) {
    if (value === null) delete meta[key];
    else meta[key] = value;
  }
  return { jsonrpc: "2.0", id: options.id ?? nextId++, method, params: { ...params, _meta: meta } };
}

/** A complete 2026-07-28 POST (headers mirroring the body), ready for `fetch`. */
export function mcpRequest(
  method: string,
  params: Record<string, unknown> = {},
  options: Options = {},
): Request {
  const body = modernBody(method, params, options);
  const name = nameOf(method, params);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": MODERN_VERSION,
    "Mcp-Method": method,
    ...(typeof name === "string" ? { "Mcp-Name": name } : {}),
  };
  for (const [key, value] of Object.entries(options.headers ?? {})) {
    if (value === null) delete headers[key];
    else headers[key] = value;
  }
  return new Request(`http://localhost/mcp/${options.server ?? "everything"}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
}

/** A raw POST with arbitrary body text and headers. */
export function rawPost(
  body: string,
  headers: Record<string, string> = {},
  server = "everything",
): Request {
  return new Request(`http://localhost/mcp/${server}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });
}

/** A 2025-era POST: no `_meta` envelope, `MCP-Protocol-Version` only after initialize. */
export function legacyRequest(
  method: string,
  params: Record<string, unknown> | undefined,
  options: {
    id?: string | number;
    version?: string | null;
    server?: string;
    notification?: boolean;
    /** Extra headers. */
    headers?: Record<string, string>;
  } = {},
): Request {
  const version = options.version === undefined ? "2025-11-25" : options.version;
  const body = options.notification
    ? { jsonrpc: "2.0", method, ...(params ? { params } : {}) }
    : { jsonrpc: "2.0", id: options.id ?? nextId++, method, ...(params ? { params } : {}) };
  return new Request(`http://localhost/mcp/${options.server ?? "everything"}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...(version === null ? {} : { "MCP-Protocol-Version": version }),
      ...options.headers,
    },
    body: JSON.stringify(body),
  });
}
