import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { CancelledParamsSchema } from "../../shared/protocol/notifications.ts";
import type { JsonRpcNotification, JsonRpcResponse } from "../../shared/jsonrpc.ts";
import type { Caller } from "../auth/bearer.ts";
import type { DurableBindings } from "../durable/bindings.ts";
import { postMessage } from "../durable/rendezvous-client.ts";
import { callerKey, postCancel } from "./cancel.ts";
import { SERVER_REQUEST_PREFIX } from "./input/legacy-input.ts";
import { errorOutcome, outcomeResponse } from "./outcome.ts";

/**
 * Acts on a notification from the client. `notifications/cancelled` is routed to the call it
 * names, on whichever instance runs it; other notifications need nothing.
 */
export async function takeNotification(
  message: JsonRpcNotification,
  request: Request,
  caller: Caller | undefined,
  durable: DurableBindings,
): Promise<void> {
  if (message.method !== "notifications/cancelled" || !durable.rendezvous) return;
  const params = CancelledParamsSchema.safeParse(message.params);
  if (params.success)
    await postCancel(
      durable.rendezvous,
      callerKey(caller, request),
      params.data.requestId,
      params.data.reason,
    );
}

/** Routes a client's answer to a server-to-client request back to the call waiting for it. */
export async function takeResponse(
  message: JsonRpcResponse,
  durable: DurableBindings,
): Promise<Response> {
  const { id } = message;
  if (typeof id !== "string" || !id.startsWith(SERVER_REQUEST_PREFIX) || !durable.rendezvous) {
    const refusal = new RpcError(
      ErrorCode.InvalidRequest,
      "This response answers no request this server sent.",
    );
    return outcomeResponse(errorOutcome(refusal, undefined, "legacy"));
  }
  await postMessage(durable.rendezvous, `response:${id}`, JSON.stringify(message));
  return new Response(null, { status: 202 });
}
