import { JsonRpcErrorResponseSchema } from "../protocol/messages.ts";
import { McpError } from "./errors.ts";
import type { ErrorContext } from "./transport.ts";

/** The error for a JSON-RPC error object the server sent, with the reply's status. */
export function rpcError(
  error: { code: number; message: string; data?: unknown },
  status: number,
  context: ErrorContext,
): McpError {
  return new McpError(error.message, {
    kind: "rpc",
    code: error.code,
    data: error.data,
    status,
    ...context,
  });
}

/**
 * The error for a non-2xx reply: a JSON-RPC error in the body is an `rpc` error with the status,
 * except auth refusals (401/403), which stay `http` errors whatever the body says.
 */
export async function httpFailure(response: Response, context: ErrorContext): Promise<McpError> {
  const text = await response.text().catch(() => "");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const rpc = JsonRpcErrorResponseSchema.safeParse(body);
  const status = response.status;
  if (rpc.success && status !== 401 && status !== 403) {
    return rpcError(rpc.data.error, status, context);
  }
  return new McpError(
    rpc.success ? rpc.data.error.message : `HTTP ${status} from the server for ${context.method}.`,
    {
      kind: "http",
      status,
      ...(rpc.success ? { code: rpc.data.error.code, data: rpc.data.error.data } : {}),
      ...(rpc.success ? {} : { data: { body: text.slice(0, 1000) } }),
      ...context,
    },
  );
}
