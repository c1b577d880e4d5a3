import {
  TASKS_EXTENSION,
  type ServerCapabilities,
} from "../../../../shared/protocol/capabilities.ts";
import type { Catalog } from "../../catalog/catalog.ts";
import type { Coordination } from "../../ports.ts";

const advertised = new WeakMap<Catalog, Map<string, ServerCapabilities>>();

/**
 * What a server advertises to 2026 clients: change notifications and resource subscriptions
 * when there is a listen source (the listen hub, or the server's own); tasks when there is a
 * task store and a tool that may run as a task, or the server's own task router. Computed once
 * per catalog and set of ports.
 */
export function modernCapabilities(
  catalog: Catalog,
  coordination: Coordination,
): ServerCapabilities {
  const key = `${coordination.listen ? "l" : ""}${coordination.tasks ? "t" : ""}`;
  let byPorts = advertised.get(catalog);
  if (!byPorts) advertised.set(catalog, (byPorts = new Map()));
  let caps = byPorts.get(key);
  if (!caps) byPorts.set(key, (caps = build(catalog, coordination)));
  return caps;
}

function build(catalog: Catalog, coordination: Coordination): ServerCapabilities {
  const base = catalog.capabilities;
  const { definition } = catalog;
  const caps: ServerCapabilities = { ...base };
  if (coordination.listen || definition.listen) {
    if (base.tools) caps.tools = { listChanged: true };
    if (base.prompts) caps.prompts = { listChanged: true };
    if (base.resources) caps.resources = { subscribe: true, listChanged: true };
  }
  if (definition.tasks || (coordination.tasks && catalog.taskTools))
    caps.extensions = { ...base.extensions, [TASKS_EXTENSION]: {} };
  return caps;
}
