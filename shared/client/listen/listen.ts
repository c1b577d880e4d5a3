import { linkedController } from "../../abortable.ts";
import { SubscriptionAcknowledgedSchema } from "../../protocol/notifications.ts";
import type { ListenFilter } from "../../protocol/params.ts";
import type { ClientCore } from "../core.ts";
import { abortError, McpError, rpcError } from "../errors.ts";
import { mediaTypeOf, readReply, sseMessages } from "../read-reply.ts";
import { post } from "../transport.ts";
import { LISTEN_METHOD as METHOD, Subscription, subscriptionIdOf } from "./subscription.ts";

/**
 * Opens a listen stream and waits for its acknowledgement, which must be the first message;
 * then delivers notifications through the returned subscription.
 */
export async function openListen(
  core: ClientCore,
  filter: ListenFilter,
  options: { signal?: AbortSignal; meta?: Record<string, unknown> },
): Promise<Subscription> {
  const { conn, era } = core;
  const context = core.context(METHOD);
  era.require2026("subscriptions/listen needs a 2026 server.", context);
  const id = conn.nextId();
  const signal = options.signal;
  if (signal?.aborted) throw abortError(signal, context);
  const { controller, unlink } = linkedController(signal);
  try {
    const params = era.envelope(
      conn,
      { notifications: filter },
      options.meta ? { meta: options.meta } : {},
    );
    const body = { jsonrpc: "2.0", id, method: METHOD, params };
    const response = await post(
      conn,
      body,
      era.headers(conn, { method: METHOD }),
      controller.signal,
      context,
    );
    if (!response.ok || mediaTypeOf(response) !== "text/event-stream" || !response.body) {
      await readReply(response, { id, maxBytes: conn.maxReplyBytes }, context);
      throw new McpError("The listen stream ended before its acknowledgement.", {
        kind: "protocol",
        ...context,
      });
    }
    const events = sseMessages(response.body, context, conn.maxReplyBytes, (message) =>
      conn.onWire?.({ type: "message", url: conn.url, message }),
    );
    const first = await events.next();
    const ack = first.done ? undefined : first.value;
    if (ack && "error" in ack) throw rpcError(ack.error, response.status, context);
    const parsed = SubscriptionAcknowledgedSchema.safeParse(ack);
    if (!parsed.success || subscriptionIdOf(parsed.data.params) !== String(id)) {
      throw new McpError("The first listen message is not its acknowledgement.", {
        kind: "protocol",
        data: { message: ack },
        ...context,
      });
    }
    const subscription = new Subscription(
      id,
      parsed.data.params.notifications,
      controller,
      events,
      (notification) => core.observe(notification),
    );
    // The caller's signal stays linked while the stream is open, and no longer.
    void subscription.closed.then(unlink);
    return subscription;
  } catch (error) {
    unlink();
    controller.abort();
    if (signal?.aborted) throw abortError(signal, context);
    throw error;
  }
}
