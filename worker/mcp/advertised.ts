import type { ServerCapabilities } from "../../shared/protocol/capabilities.ts";
import type { DurableBindings } from "../durable/bindings.ts";
import type { Catalog } from "./catalog.ts";
import type { Era } from "./context.ts";
import { TASKS_EXTENSION } from "./tasks-extension.ts";

/**
 * What a server advertises in an era. Change notifications and resource subscriptions need
 * the listen bus and are only offered to 2026 clients (2025 clients would expect them on a
 * session stream, which a stateless server does not keep); tasks need the task objects and at
 * least one tool that may run as a task.
 */
export function advertisedCapabilities(
  catalog: Catalog,
  durable: DurableBindings,
  era: Era,
): ServerCapabilities {
  const base = catalog.capabilities;
  if (era === "legacy") return base;
  const caps: ServerCapabilities = { ...base };
  if (durable.bus) {
    if (base.tools) caps.tools = { listChanged: true };
    if (base.prompts) caps.prompts = { listChanged: true };
    if (base.resources) caps.resources = { subscribe: true, listChanged: true };
  }
  if (durable.tasks && catalog.taskTools > 0)
    caps.extensions = { ...base.extensions, [TASKS_EXTENSION]: {} };
  return caps;
}
