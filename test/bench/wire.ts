// The 2026-07-28 wire as a client sends it, spelled out so the bench does not trust edgemcp's
// own constants.
const PROTOCOL_VERSION = "2026-07-28";

const CLIENT_INFO = { name: "edgemcp-bench", version: "1.0.0" };

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
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
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
