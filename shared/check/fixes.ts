// What a server's author does about a check that did not pass: one sentence per rule, shown by
// `edgemcp check` under the check and by the playground's check view beside it.

const EXACT: Record<string, string> = {
  "discover.answers":
    "Answer POST server/discover with a 2026-07-28 result (supportedVersions, capabilities, serverInfo); a 2025-only server is fine if clients may use initialize.",
  "discover.result-type": 'Send resultType: "complete" in every finished 2026 result.',
  "discover.versions": "List 2026-07-28 in the discover result's supportedVersions.",
  "discover.cache-hints":
    'Add ttlMs (milliseconds, 0 or more) and cacheScope ("public" or "private") to the discover result.',
  "discover.server-info":
    'Put the server\'s name and version in _meta["io.modelcontextprotocol/serverInfo"] of each 2026 result.',
  "discover.no-session":
    "Do not mint Mcp-Session-Id for 2026-07-28 requests: that era is stateless.",
  "headers.version-unsupported":
    'Refuse an unknown version with HTTP 400 and error -32022 whose data has "supported" (your versions) and "requested".',
  "headers.meta-version-missing":
    "Refuse a request whose _meta lacks the protocol version with HTTP 400 and -32602.",
  "headers.meta-capabilities-missing":
    "Refuse a request whose _meta lacks the client capabilities with HTTP 400 and -32602.",
  "lists.cursor-invalid":
    "Refuse a cursor your server did not issue with -32602 instead of ignoring it.",
  "lists.deterministic":
    "Return list items in a stable order (sort them), so cursors and caches stay valid.",
  "lists.tool-names":
    "Rename tools to 1-128 characters of A-Z a-z 0-9 _ . - (clients and models reject others).",
  "resources.read": "Answer resources/read of a listed URI with its contents.",
  "resources.not-found":
    "Refuse resources/read of an unknown URI with -32602 (not an empty result or -32603).",
  "errors.unknown-method": "Refuse a method you do not implement with HTTP 404 and -32601.",
  "errors.unknown-tool": "Refuse tools/call of a tool you do not have with -32602.",
  "errors.unknown-prompt": "Refuse prompts/get of a prompt you do not have with -32602.",
  "legacy.initialize":
    "Answer initialize with a 2025 protocolVersion, or ignore this if only 2026-07-28 clients may connect.",
  "legacy.initialized": "Accept notifications/initialized with HTTP 202 and an empty body.",
  "legacy.ping": "Answer ping with an empty result on the session.",
  "legacy.tools-list": "Answer tools/list for 2025 clients with a valid result.",
  "cors.preflight":
    "Answer OPTIONS with Access-Control-Allow-Origin, Allow-Methods including POST, and Allow-Headers naming Content-Type, Authorization, MCP-Protocol-Version, Mcp-Method and Mcp-Name.",
  "cors.response":
    "Send Access-Control-Allow-Origin on every reply, and list Mcp-Session-Id in Access-Control-Expose-Headers.",
  "messages.envelope":
    'Send only JSON-RPC 2.0 messages: jsonrpc "2.0", an id on responses, result or error, never both.',
  "messages.shapes":
    "Fix the result or notification named in the detail so it matches its method's schema.",
  "messages.result-type": "Add resultType to every 2026 result.",
  "messages.server-info":
    'Put _meta["io.modelcontextprotocol/serverInfo"] on every 2026 result, not only discover.',
  "messages.error-codes":
    "Send no code from -32023 to -32099 (the specification reserves them); use the code the specification gives for the case, or your own outside that range.",
};

/**
 * The advice for a check the server answered 401: it could not look past the sign-in, so
 * nothing about the server's protocol is known to be wrong.
 */
export const SIGN_IN_FIX =
  "The server asks for credentials (HTTP 401), so this check saw only what it shows a stranger: sign in or send a token, then check again.";

/** What to do about a check that did not pass, by its id; undefined when there is no advice. */
export function fixFor(id: string): string | undefined {
  const exact = EXACT[id];
  if (exact !== undefined) return exact;
  if (id.startsWith("headers."))
    return "Compare the Mcp-Method, Mcp-Name and MCP-Protocol-Version headers with the body and refuse a mismatch or a missing one with HTTP 400 and -32020.";
  if (id.endsWith("-cache-hints"))
    return 'Add ttlMs and cacheScope ("public" or "private") to every page of the list.';
  if (id.endsWith("-end"))
    return "Stop returning nextCursor on the last page; a cursor must lead somewhere new.";
  if (id.startsWith("lists."))
    return "Return pages that match the list's schema, with a nextCursor that the next request accepts.";
  return undefined;
}
