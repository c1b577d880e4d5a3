import { TASKS_EXTENSION, type ServerCapabilities } from "../../../shared/protocol/capabilities.ts";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { Catalog } from "../catalog/catalog.ts";
import type { EraAdapter } from "../era/era.ts";
import type { Route } from "../methods/method.ts";
import type { Coordination } from "../ports.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import { NAME_PARAM } from "../../../shared/protocol/methods.ts";
import { AuthError, type Caller } from "../../auth/bearer.ts";
import { decide, type Access, type Target } from "../../auth/policy.ts";
import { HttpError } from "../../http/http-error.ts";

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

/** What a catalog reader (a proxy of this isolate listing its upstreams) may ask. */
const LISTING = new Set([
  "initialize",
  "ping",
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "notifications/initialized",
]);

/** Whether a tool of the catalog exists and is not annotated `readOnlyHint: true`. */
export function mutatingIn(catalog: Catalog): (tool: string) => boolean {
  return (name) => {
    const tool = catalog.tools.get(name);
    return tool !== undefined && tool.wire.annotations?.readOnlyHint !== true;
  };
}

/** What a parsed request asks for: its method and the member its name header would mirror. */
export function targetOfBody(method: string, params: JsonObject | undefined): Target {
  const key = NAME_PARAM[method];
  const name = key && isJsonObject(params) ? params[key] : undefined;
  return { method, name: typeof name === "string" ? name : undefined };
}

/**
 * Refuses a request the endpoint's access rules do not allow: 401 with the endpoint's bearer
 * challenge when a credential could help, 403 with a JSON-RPC error when it would not.
 */
export function admit(
  access: Access | undefined,
  caller: Caller | undefined,
  target: Target,
  mutating: (tool: string) => boolean,
): void {
  if (!access) return;
  if (access.catalogReader) {
    if (LISTING.has(target.method)) return;
    throw unauthenticated(access, target);
  }
  const decision = decide(access, caller, target, mutating);
  if (decision === "allow") return;
  if (decision === "unauthenticated") throw unauthenticated(access, target);
  const what = target.name === undefined ? target.method : `${target.method} "${target.name}"`;
  throw new HttpError(403, `Forbidden: this caller may not use ${what} on this server.`, {
    "WWW-Authenticate": `Bearer error="insufficient_scope"${access.metadataUrl ? `, resource_metadata="${access.metadataUrl}"` : ""}`,
  });
}

/**
 * Before the body of a request without 2026 routing headers: refuses only what no body could
 * make allowed (a caller without a credential where the endpoint admits none).
 */
export function admitUnnamed(access: Access | undefined, caller: Caller | undefined): void {
  if (!access || caller || !access.credentialsConfigured || access.catalogReader) return;
  if (access.anonymous === "none") throw unauthenticated(access, { method: "" });
}

function unauthenticated(access: Access, target: Target): AuthError {
  const message =
    target.method === "tools/call" && access.anonymous === "read-only"
      ? `Calling ${target.name === undefined ? "this tool" : `"${target.name}"`} needs a bearer token: without one, this server allows only tools annotated readOnlyHint.`
      : "This MCP endpoint needs a bearer token (Authorization: Bearer <token>).";
  return new AuthError(message, undefined, access.metadataUrl);
}

/**
 * Whether the caller may call a tool, for lists that show each caller only what it may call;
 * undefined when everyone may call everything (the shared list serves).
 */
export function toolFilter(
  access: Access | undefined,
  caller: Caller | undefined,
  catalog: Catalog,
): ((tool: string) => boolean) | undefined {
  if (!access || access.catalogReader) return undefined;
  const mutating = mutatingIn(catalog);
  const allowed = (name: string) =>
    decide(access, caller, { method: "tools/call", name }, mutating) === "allow";
  for (const name of catalog.tools.keys()) if (!allowed(name)) return allowed;
  return undefined;
}
