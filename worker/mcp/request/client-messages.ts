import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { JsonRpcNotification, JsonRpcResponse } from "../../../shared/protocol/messages.ts";
import { cancelledParams } from "../methods/params.ts";
import { SERVER_REQUEST_PREFIX, type Coordination } from "../ports.ts";
import { failure } from "./errors.ts";
import { jsonResponse } from "./reply.ts";

/**
 * Acts on a notification from the client (answered 202). `notifications/cancelled` is routed to
 * the call it names, on whichever instance runs it, among the calls of `caller` (see
 * `cancellationKey`; without a key it reaches nothing); other notifications need nothing.
 */
export async function takeNotification(
  message: JsonRpcNotification,
  caller: string | undefined,
  coordination: Coordination,
): Promise<Response> {
  const { cancellation } = coordination;
  if (message.method === "notifications/cancelled" && cancellation && caller !== undefined) {
    const params = cancelledParams(message.params);
    if (params) await cancellation.post(caller, params.requestId, params.reason);
  }
  return new Response(null, { status: 202 });
}

/** Routes a client's answer to a server-to-client request back to the call waiting for it. */
export async function takeResponse(
  message: JsonRpcResponse,
  coordination: Coordination,
): Promise<Response> {
  const { id } = message;
  const { serverRequests } = coordination;
  if (typeof id !== "string" || !id.startsWith(SERVER_REQUEST_PREFIX) || !serverRequests) {
    // Answered without an id: a response is not a request, and this one answers nothing.
    const refusal = new RpcError(
      ErrorCode.InvalidRequest,
      "This response answers no request this server sent.",
    );
    return jsonResponse(failure(refusal));
  }
  await serverRequests.answer(id, JSON.stringify(message));
  return new Response(null, { status: 202 });
}
