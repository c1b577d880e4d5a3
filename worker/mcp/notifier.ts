import type { ListenBus } from "../durable/listen-bus.ts";
import type { BusEvent } from "../durable/listen-filter.ts";

/** Announces changes to every listen stream of a server, on every instance (`ctx.notify`). */
export type ChangeNotifier = {
  toolsListChanged(): Promise<void>;
  promptsListChanged(): Promise<void>;
  resourcesListChanged(): Promise<void>;
  /** `uri` changed; streams subscribed to it or to a parent URI hear of it. */
  resourceUpdated(uri: string): Promise<void>;
};

/** A notifier publishing to the server's ListenBus; without a bus there is nobody to tell. */
export function notifierFor(
  bus: DurableObjectNamespace<ListenBus> | undefined,
  server: string,
): ChangeNotifier {
  const publish = async (event: BusEvent) => {
    if (bus) await bus.getByName(server).publish(event);
  };
  return {
    toolsListChanged: () => publish({ kind: "toolsListChanged" }),
    promptsListChanged: () => publish({ kind: "promptsListChanged" }),
    resourcesListChanged: () => publish({ kind: "resourcesListChanged" }),
    resourceUpdated: (uri) => publish({ kind: "resourceUpdated", uri }),
  };
}
