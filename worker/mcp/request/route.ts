import { TASKS_EXTENSION, type ServerCapabilities } from "../../../shared/protocol/capabilities.ts";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { Catalog } from "../catalog/catalog.ts";
import type { EraAdapter } from "../era/era.ts";
import type { Route } from "../methods/method.ts";
import type { Coordination } from "../ports.ts";

/** What the server has that a method needs, given what it advertises. */
type Serving = { capabilities: ServerCapabilities; catalog: Catalog; coordination: Coordination };

/**
 * The capability gate: a method whose capability the server does not offer does not exist.
 * "tasks" is the tasks extension; "listen" a listen source (the listen hub, or the server's own).
 */
const NEEDS: Readonly<Record<string, keyof ServerCapabilities | "tasks" | "listen">> = {
  "tools/list": "tools",
  "tools/call": "tools",
  "resources/list": "resources",
  "resources/read": "resources",
  "resources/templates/list": "resources",
  "prompts/list": "prompts",
  "prompts/get": "prompts",
  "completion/complete": "completions",
  "logging/setLevel": "logging",
  "tasks/get": "tasks",
  "tasks/update": "tasks",
  "tasks/cancel": "tasks",
  "resources/subscribe": "resources",
  "resources/unsubscribe": "resources",
  "subscriptions/listen": "listen",
};

/**
 * The route stage: the era's route for a method, or -32601 when the era has none or the server
 * does not offer what it belongs to.
 */
export function routeOf(era: EraAdapter, method: string, serving: Serving): Route {
  const { capabilities, catalog, coordination } = serving;
  const route = Object.hasOwn(era.routes, method) ? era.routes[method] : undefined;
  const need = Object.hasOwn(NEEDS, method) ? NEEDS[method] : undefined;
  const offered =
    need === "tasks"
      ? capabilities.extensions?.[TASKS_EXTENSION] !== undefined
      : need === "listen"
        ? Boolean(catalog.definition.listen || coordination.listen)
        : need === undefined || Boolean(capabilities[need]);
  if (route && offered) return route;
  const hint = Object.hasOwn(era.notFoundHints, method) ? era.notFoundHints[method] : undefined;
  throw new RpcError(
    ErrorCode.MethodNotFound,
    `Method not found: "${method}"${hint ? ` (${hint})` : ""}.`,
    { method },
  );
}
