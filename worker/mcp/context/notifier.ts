import type { ChangeNotifier, ListenEvent } from "./context.ts";

type Publisher = { publish(server: string, event: ListenEvent): Promise<void> };

/** Without a listen hub there is nobody to tell. */
const SILENT: ChangeNotifier = {
  async toolsListChanged() {},
  async promptsListChanged() {},
  async resourcesListChanged() {},
  async resourceUpdated() {},
};
const notifiers = new WeakMap<Publisher, Map<string, ChangeNotifier>>();

/** A notifier publishing to the server's listen hub, made once per hub and server. */
export function notifierFor(hub: Publisher | undefined, server: string): ChangeNotifier {
  if (!hub) return SILENT;
  let byServer = notifiers.get(hub);
  if (!byServer) notifiers.set(hub, (byServer = new Map()));
  let notifier = byServer.get(server);
  if (!notifier) byServer.set(server, (notifier = publishing(hub, server)));
  return notifier;
}

function publishing(hub: Publisher, server: string): ChangeNotifier {
  const publish = async (event: ListenEvent) => {
    await hub.publish(server, event);
  };
  return {
    toolsListChanged: () => publish({ kind: "toolsListChanged" }),
    promptsListChanged: () => publish({ kind: "promptsListChanged" }),
    resourcesListChanged: () => publish({ kind: "resourcesListChanged" }),
    resourceUpdated: (uri) => publish({ kind: "resourceUpdated", uri }),
  };
}
