import { MetaKey } from "../../../shared/protocol/meta.ts";
import type { JsonRpcId } from "../../../shared/protocol/messages.ts";
import type { ListenFilter } from "../../../shared/protocol/params.ts";

/**
 * The serialized messages of one listen stream, each tagged with its subscription id (the
 * listen request's id): the acknowledgement, the notifications, and the result that ends it.
 */
export function listenMessages(id: JsonRpcId) {
  const tag = { [MetaKey.subscriptionId]: id };
  return {
    acknowledged: (filter: ListenFilter): string =>
      JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: { _meta: tag, notifications: filter },
      }),
    notification: (notification: { method: string; params?: Record<string, unknown> }): string =>
      JSON.stringify({
        jsonrpc: "2.0",
        method: notification.method,
        params: { ...notification.params, _meta: tag },
      }),
    complete: (): string =>
      JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "complete", _meta: tag } }),
  };
}
