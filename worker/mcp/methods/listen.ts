import { listenFilterOf } from "../listen/filter.ts";
import type { Listening } from "./method.ts";

/**
 * `subscriptions/listen`: a stream of the changes the filter asks for. The server's own source
 * (the hub's) wins over the listen hub; the route is offered only when one of them exists.
 */
export async function listen(listening: Listening): Promise<Response> {
  const { info, catalog, keepAliveMs, listenMaxMs: maxMs } = listening;
  const maxBufferedBytes = listening.sseBufferBytes;
  const filter = listenFilterOf(listening.params, info, listening.capabilities);
  const source = catalog.definition.listen;
  if (source)
    return source(info.id, filter, listening.context, { keepAliveMs, maxBufferedBytes, maxMs });
  const hub = listening.coordination.listen;
  // The route is offered only with a source or a hub.
  if (!hub) throw new Error("No listen hub.");
  return hub.open(listening.server, {
    id: info.id,
    subject: listening.subject,
    filter,
    keepAliveMs,
    maxBufferedBytes,
    maxMs,
  });
}
