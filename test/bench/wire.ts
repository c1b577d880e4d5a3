// The 2026-07-28 wire as a client sends it, spelled out so the bench does not trust edgemcp's
// own constants.
const PROTOCOL_VERSION = "2026-07-28";

const CLIENT_INFO = { name: "edgemcp-bench", version: "1.0.0" };

/** The headers of every POST the bench sends: a JSON body, JSON or SSE answers accepted. */
const POST_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};

/** One HTTP request, sent unchanged for every iteration of a run. */
export type BenchRequest = { headers: Record<string, string>; body: string };

export type RequestSpec = {
  method: string;
  params: Record<string, unknown>;
  /** The `Mcp-Name` value: a tool name or a resource URI. */
  name?: string;
  progressToken?: string;
};

/** A complete 2026-07-28 POST: headers mirroring the body, `_meta` envelope, id 1. */
export function benchRequest({ method, params, name, progressToken }: RequestSpec): BenchRequest {
  const meta: Record<string, unknown> = {
    "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
  };
  if (progressToken !== undefined) meta.progressToken = progressToken;
  const headers: Record<string, string> = {
    ...POST_HEADERS,
    "MCP-Protocol-Version": PROTOCOL_VERSION,
    "Mcp-Method": method,
  };
  if (name !== undefined) headers["Mcp-Name"] = name;
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method,
    params: { ...params, _meta: meta },
  });
  return { headers, body };
}

/** The 2025 protocol version the bench's 2025 client asks for in `initialize`. */
export const LEGACY_VERSION = "2025-06-18";

/**
 * A 2025 request as a desktop client sends it after `initialize`: no `_meta` envelope, no
 * routing headers, the negotiated version in `MCP-Protocol-Version`, and the session the server
 * gave (if it gave one).
 */
export function legacyRequest(
  { method, params, progressToken }: RequestSpec,
  protocolVersion = LEGACY_VERSION,
  sessionId?: string,
): BenchRequest {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method,
    params: progressToken === undefined ? params : { ...params, _meta: { progressToken } },
  });
  return { headers: legacyHeaders(protocolVersion, sessionId), body };
}

/** The notification a 2025 client sends once `initialize` has answered. */
export function initializedNotification(protocolVersion: string, sessionId?: string): BenchRequest {
  return {
    headers: legacyHeaders(protocolVersion, sessionId),
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized", params: {} }),
  };
}

function legacyHeaders(protocolVersion: string, sessionId?: string): Record<string, string> {
  const headers: Record<string, string> = {
    ...POST_HEADERS,
    "MCP-Protocol-Version": protocolVersion,
  };
  if (sessionId !== undefined) headers["Mcp-Session-Id"] = sessionId;
  return headers;
}

/** The `initialize` request of the bench's 2025 client. */
export function initializeRequest(): BenchRequest {
  return {
    headers: { ...POST_HEADERS },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
    }),
  };
}
