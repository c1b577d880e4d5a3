import type { ServerCapabilities } from "../../../shared/protocol/capabilities.ts";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { Catalog } from "../catalog/catalog.ts";
import { METHODS } from "../define/features.ts";
import type { EraAdapter } from "../era/era.ts";
import type { Route } from "../methods/method.ts";
import type { Coordination } from "../ports.ts";

/** What the server has that a method needs, given what it advertises. */
type Serving = { capabilities: ServerCapabilities; catalog: Catalog; coordination: Coordination };

/**
 * The capability gate: a method whose capability the server does not offer does not exist.
 * The methods of features (tasks, listen) are offered as each feature says.
 */
const NEEDS: Readonly<Record<string, keyof ServerCapabilities>> = {
  "tools/list": "tools",
  "tools/call": "tools",
  "resources/list": "resources",
  "resources/read": "resources",
  "resources/templates/list": "resources",
  "prompts/list": "prompts",
  "prompts/get": "prompts",
  "completion/complete": "completions",
  "logging/setLevel": "logging",
  "resources/subscribe": "resources",
  "resources/unsubscribe": "resources",
};

// The methods a catalog's prompts, resources and templates brought (from their builders), merged
// once per catalog.
const entryRoutes = new WeakMap<Catalog, Readonly<Record<string, Route>>>();

/** The route a catalog's prompts, resources or templates brought for a method, if any. */
function entryRoute(catalog: Catalog, method: string): Route | undefined {
  let routes = entryRoutes.get(catalog);
  if (!routes) {
    const { prompts = [], resources = [], resourceTemplates = [] } = catalog.definition;
    const entries = [...prompts, ...resources, ...resourceTemplates];
    // Each builder's methods are routes of methods/method.ts (define/ cannot name the type).
    routes = Object.assign({}, ...entries.map((entry) => entry[METHODS])) as Record<string, Route>;
    entryRoutes.set(catalog, routes);
  }
  return Object.hasOwn(routes, method) ? routes[method] : undefined;
}

/** The route of a feature the server names in its definition and offers with these ports. */
function featureRoute(method: string, { catalog, coordination }: Serving): Route | undefined {
  const { tasks, listen } = catalog.definition;
  for (const feature of [tasks, listen]) {
    if (feature && Object.hasOwn(feature.routes, method) && feature.offered(coordination, catalog))
      return feature.routes[method];
  }
  return undefined;
}

/**
 * The route stage: the era's route for a method, or -32601 when the era has none or the server
 * does not offer what it belongs to.
 */
export function routeOf(era: EraAdapter, method: string, serving: Serving): Route {
  // The entries' routes only for a method the era does not route itself (not for a tool call).
  const route = Object.hasOwn(era.routes, method)
    ? era.routes[method]
    : entryRoute(serving.catalog, method);
  if (route) {
    const need = Object.hasOwn(NEEDS, method) ? NEEDS[method] : undefined;
    if (need === undefined || serving.capabilities[need]) return route;
  } else if (era.featureMethods) {
    const added = featureRoute(method, serving);
    if (added) return added;
  }
  const hint = Object.hasOwn(era.notFoundHints, method) ? era.notFoundHints[method] : undefined;
  throw new RpcError(
    ErrorCode.MethodNotFound,
    `Method not found: "${method}"${hint ? ` (${hint})` : ""}.`,
    { method },
  );
}
