import { SSE_HEADERS } from "../http/sse.ts";
import type { ListenHub } from "../mcp/ports.ts";
import type { ListenBus } from "./listen-bus.ts";

/** Listen streams held in one listen bus object per server, reached from every instance. */
export function listenHubOver(namespace: DurableObjectNamespace<ListenBus>): ListenHub {
  return {
    async open(server, stream) {
      const response = await namespace
        .getByName(server)
        .fetch("https://bus/listen", { method: "POST", body: JSON.stringify(stream) });
      return new Response(response.body, { headers: SSE_HEADERS });
    },
    async publish(server, event) {
      await namespace.getByName(server).publish(event);
    },
  };
}
