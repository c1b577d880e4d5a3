import type { ServerCapabilities } from "../../shared/protocol/capabilities.ts";
import type { DurableBindings } from "../durable/bindings.ts";
import type { Catalog } from "./catalog.ts";
import type { Era } from "../../shared/protocol/versions.ts";
import { TASKS_EXTENSION } from "../../shared/protocol/tasks.ts";

const cache = new WeakMap<Catalog, Map<string, ServerCapabilities>>();

/**
 * What a server advertises in an era. Change notifications and resource subscriptions need a
 * listen source (the bus, or the server's own) and are only offered to 2026 clients (2025
 * clients would expect them on a session stream, which a stateless server does not keep);
 * tasks need the task objects and a tool that may run as a task, or the server's own router.
 * Computed once per catalog and set of bindings.
 */
export function advertisedCapabilities(
  catalog: Catalog,
  durable: DurableBindings,
  era: Era,
): ServerCapabilities {
  if (era === "legacy") return catalog.capabilities;
  const key = `${durable.bus ? "b" : ""}${durable.tasks ? "t" : ""}`;
  let byBindings = cache.get(catalog);
  if (!byBindings) cache.set(catalog, (byBindings = new Map()));
  let caps = byBindings.get(key);
  if (!caps) byBindings.set(key, (caps = modernCapabilities(catalog, durable)));
  return caps;
}

function modernCapabilities(catalog: Catalog, durable: DurableBindings): ServerCapabilities {
  const base = catalog.capabilities;
  const { definition } = catalog;
  const caps: ServerCapabilities = { ...base };
  if (durable.bus || definition.listen) {
    if (base.tools) caps.tools = { listChanged: true };
    if (base.prompts) caps.prompts = { listChanged: true };
    if (base.resources) caps.resources = { subscribe: true, listChanged: true };
  }
  if (definition.tasks || (durable.tasks && catalog.taskTools))
    caps.extensions = { ...base.extensions, [TASKS_EXTENSION]: {} };
  return caps;
}
