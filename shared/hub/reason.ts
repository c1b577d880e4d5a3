import { McpError } from "../client/errors.ts";

/**
 * Why an upstream failed, in words safe to show the hub's clients: a category and, for an HTTP
 * refusal, its status; never the upstream's URL, path, query, headers or raw reply (those go to
 * the hub's log). An upstream's own JSON-RPC errors are passed on elsewhere, not described here.
 */
export function publicReason(error: unknown): string {
  if (error instanceof McpError) {
    switch (error.kind) {
      case "http":
        return error.status === 401 || error.status === 403
          ? `it refused the hub's credentials (HTTP ${error.status})`
          : `HTTP ${error.status ?? "error"}`;
      case "network":
        return "not reachable";
      case "aborted":
        return "timed out";
      case "protocol":
        return "a reply that breaks the MCP protocol";
      case "rpc":
        return `JSON-RPC error ${error.code ?? "without a code"}`;
      case "client":
        return "a request the hub cannot relay";
    }
  }
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return "timed out";
  // The hub's own idle timeout (forward.ts) says how long it waited.
  if (error instanceof Error && /^no answer within \d+ s$/.test(error.message))
    return error.message;
  return "failed";
}
