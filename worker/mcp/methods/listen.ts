import type { Listening, ServerFeature } from "../define/features.ts";
import { listenFilterOf } from "../listen/filter.ts";
import { sourceStreams, type ListenSource } from "../listen/source.ts";

/**
 * Listen streams (`subscriptions/listen`) held by the listen hub, the `listen` port of
 * `durable` (`durableObjects({ bus: env.MCP_BUS })`): a server whose clients listen for changes
 * (`ctx.notify`, task updates) names it in its definition, `listen: listenStreams`. Offered,
 * and advertised (`listChanged`, resource subscriptions), when the port is there.
 */
export const listenStreams: ServerFeature = {
  routes: {
    "subscriptions/listen": {
      async stream(listening) {
        const { info, listenMaxMs: maxMs, keepAliveMs } = listening;
        const filter = listenFilterOf(listening.params, info, listening.capabilities);
        const hub = listening.coordination.listen;
        // Offered only with a listen hub.
        if (!hub) throw new Error("No listen hub.");
        return hub.open(listening.server, {
          id: info.id,
          subject: listening.subject,
          filter,
          keepAliveMs,
          maxBufferedBytes: listening.sseBufferBytes,
          maxMs,
        });
      },
    },
  },
  offered(coordination) {
    return coordination.listen !== undefined;
  },
};

/**
 * Listen streams fed by the server's own source (the hub relays its upstreams'):
 * `listen: listenFromSource(source)`. Always offered. Each stream acknowledges first, then
 * sends what the source emits, tagged with the subscription id, and ends gracefully when the
 * source is done or after `listenMaxMs`; the client closing it aborts the source.
 */
export function listenFromSource(source: ListenSource): ServerFeature {
  const open = sourceStreams(source);
  return {
    routes: {
      "subscriptions/listen": {
        async stream(listening: Listening) {
          const { info, keepAliveMs, listenMaxMs: maxMs } = listening;
          const filter = listenFilterOf(listening.params, info, listening.capabilities);
          const settings = { keepAliveMs, maxBufferedBytes: listening.sseBufferBytes, maxMs };
          return open(info.id, filter, listening.context, settings);
        },
      },
    },
    offered() {
      return true;
    },
  };
}
