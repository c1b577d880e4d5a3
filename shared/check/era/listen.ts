import { isJsonObject } from "../../jsonrpc.ts";
import type { JsonObject } from "../../protocol/messages.ts";
import { MetaKey } from "../../protocol/meta.ts";
import {
  ListenNotificationSchema,
  SubscriptionAcknowledgedSchema,
} from "../../protocol/notifications.ts";
import { LISTEN_METHOD as LISTEN } from "../../client/listen/subscription.ts";
import { error, schemaFindings, type Finding } from "../finding.ts";

/**
 * A notification on a 2026 listen stream: each names its subscription, and only the listen
 * notifications travel there. Undefined for a notification on any other stream.
 */
export function listenFindings(
  method: string,
  message: JsonObject,
  stream: string,
): Finding[] | undefined {
  if (stream !== LISTEN) return undefined;
  const params = isJsonObject(message.params) ? message.params : undefined;
  const named = isJsonObject(params?._meta) ? params._meta[MetaKey.subscriptionId] : undefined;
  const missing =
    named === undefined
      ? [
          error(
            "listen.subscription-id",
            `${method} on a listen stream must carry _meta subscriptionId.`,
          ),
        ]
      : [];
  if (method === "notifications/subscriptions/acknowledged")
    return [
      ...missing,
      ...schemaFindings(SubscriptionAcknowledgedSchema, message, "notification.shape", method),
    ];
  if (method === "notifications/progress" || method === "notifications/message")
    return [error("listen.foreign", `${method} is never sent on a listen stream.`)];
  if (method === "notifications/cancelled") return missing;
  return [
    ...missing,
    ...schemaFindings(ListenNotificationSchema, message, "notification.shape", method),
  ];
}
