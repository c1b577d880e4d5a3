import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { CancelledParamsSchema } from "../../shared/protocol/notifications.ts";
import type { JsonRpcNotification, JsonRpcResponse } from "../../shared/protocol/messages.ts";
import type { Caller } from "../auth/bearer.ts";
import type { DurableSetup } from "../durable/bindings.ts";
import { callerKey } from "./cancel.ts";
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
  durable: DurableSetup,
): Promise<void> {
  const { rendezvous, drivers } = durable;
  if (message.method !== "notifications/cancelled" || !rendezvous || !drivers) return;
  const params = CancelledParamsSchema.safeParse(message.params);
  if (params.success)
    await drivers.postCancel(
      rendezvous,
      callerKey(caller, request),
      params.data.requestId,
      params.data.reason,
    );
}

/** Routes a client's answer to a server-to-client request back to the call waiting for it. */
export async function takeResponse(
  message: JsonRpcResponse,
  durable: DurableSetup,
): Promise<Response> {
  const { id } = message;
  const { rendezvous, drivers } = durable;
  if (typeof id !== "string" || !id.startsWith(SERVER_REQUEST_PREFIX) || !rendezvous || !drivers) {
    const refusal = new RpcError(
      ErrorCode.InvalidRequest,
      "This response answers no request this server sent.",
    );
    return outcomeResponse(errorOutcome(refusal, undefined, "legacy"));
  }
  await drivers.postAnswer(rendezvous, id, JSON.stringify(message));
  return new Response(null, { status: 202 });
}
