import { ErrorCode } from "../../shared/protocol/errors.ts";

/**
 * An HTTP-level rejection (before a JSON-RPC request exists): the status says what kind, and
 * the body is a JSON-RPC error without an id (MCP forbids a null id) that says what to change.
 */
export function httpError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    error: { code: ErrorCode.InvalidRequest, message },
  });
  return new Response(body, {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}
