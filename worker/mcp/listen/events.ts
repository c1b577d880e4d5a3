import type { ChangeNotifier } from "../call/context.ts";
import type { ListenEvent, ListenHub } from "../ports.ts";

/** A notifier publishing to the server's listen hub; without one there is nobody to tell. */
export function notifierFor(hub: ListenHub | undefined, server: string): ChangeNotifier {
  const publish = async (event: ListenEvent) => {
    if (hub) await hub.publish(server, event);
  };
  return {
    toolsListChanged: () => publish({ kind: "toolsListChanged" }),
    promptsListChanged: () => publish({ kind: "promptsListChanged" }),
    resourcesListChanged: () => publish({ kind: "resourcesListChanged" }),
    resourceUpdated: (uri) => publish({ kind: "resourceUpdated", uri }),
  };
}
