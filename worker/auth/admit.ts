import { isJsonObject } from "../../shared/jsonrpc.ts";
import type { JsonObject } from "../../shared/protocol/messages.ts";
import { NAME_PARAM } from "../../shared/protocol/methods.ts";
import { HttpError } from "../http/http-error.ts";
import { AuthError, type Caller } from "./bearer.ts";
import type { Access, Decision, Target } from "./access.ts";

/**
 * What admission needs to know of a server's tools: whether one exists and is not annotated
 * `readOnlyHint: true` (an anonymous read-only caller may call only those), and their names.
 */
export type ToolAccess = {
  mutating(name: string): boolean;
  names(): Iterable<string>;
};

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

/**
 * The gate before the body is read: a request whose 2026-07-28 routing headers name what it asks
 * for (`routingTarget`) is decided on them, as a gateway decides; one without them is refused
 * only if no body could make it allowed (no credential where the endpoint admits no anonymous
 * caller). The body is decided again after the envelope has checked that it agrees with the
 * headers.
 */
export function admitRouted(
  access: Access | undefined,
  caller: Caller | undefined,
  target: Target | undefined,
  tools: ToolAccess,
): void {
  if (!access) return;
  if (target) admit(access, caller, target, tools);
  else if (!caller && access.credentialsConfigured && !access.catalogReader) {
    if (access.anonymous === "none") throw unauthenticated(access, { method: "" });
  }
}

/**
 * Whether the endpoint admits every request whatever it asks: no credential configured (every
 * caller is anonymous and anonymous callers are not limited), no rules and no catalog reader.
 * Then neither gate needs to know what a request asks for (see `decide`).
 */
export function admitsEveryone(access: Access | undefined): boolean {
  return !access || (!access.credentialsConfigured && !access.rules && !access.catalogReader);
}

/**
 * What a parsed request asks for: its method and the member its name header would mirror; a
 * completion also reaches what it completes an argument of (a prompt, or a resource template).
 */
export function targetOfBody(method: string, params: JsonObject | undefined): Target {
  const key = NAME_PARAM[method];
  const name = key && isJsonObject(params) ? params[key] : undefined;
  const target: Target = { method, name: typeof name === "string" ? name : undefined };
  const ref = method === "completion/complete" && isJsonObject(params) ? params.ref : undefined;
  if (isJsonObject(ref)) {
    if (ref.type === "ref/prompt" && typeof ref.name === "string")
      target.implied = { method: "prompts/get", name: ref.name };
    else if (ref.type === "ref/resource" && typeof ref.uri === "string")
      target.implied = { method: "resources/read", name: ref.uri };
  }
  return target;
}

/**
 * Decides one request: the endpoint's anonymous access first, then its policy engine's rules
 * (the first that matches decides; none matching, or no engine, allows). `mutating` says
 * whether a tool exists and is not annotated `readOnlyHint: true` (only asked for an anonymous
 * `tools/call` under read-only access; a call naming no tool, or one that does not exist, goes
 * on to its own error).
 */
export function decide(
  access: Access,
  caller: Caller | undefined,
  target: Target,
  mutating: (tool: string) => boolean,
): Decision {
  if (caller === undefined && access.credentialsConfigured) {
    if (access.anonymous === "none") return "unauthenticated";
    if (
      access.anonymous === "read-only" &&
      target.method === "tools/call" &&
      target.name !== undefined &&
      mutating(target.name)
    )
      return "unauthenticated";
  }
  if (access.rules?.match(caller, target) !== "deny") return "allow";
  return caller === undefined && access.credentialsConfigured ? "unauthenticated" : "forbidden";
}

/**
 * Refuses a request the endpoint's access rules do not allow: 401 with the endpoint's bearer
 * challenge when a credential could help, 403 with a JSON-RPC error when it would not.
 */
export function admit(
  access: Access | undefined,
  caller: Caller | undefined,
  target: Target,
  tools: ToolAccess,
): void {
  if (!access) return;
  if (access.catalogReader) {
    if (LISTING.has(target.method)) return;
    throw unauthenticated(access, target);
  }
  // A caller denied a prompt may not complete its arguments either (they may reveal its data).
  if (target.implied) admit(access, caller, target.implied, tools);
  const decision = decide(access, caller, target, tools.mutating);
  if (decision === "allow") return;
  if (decision === "unauthenticated") throw unauthenticated(access, target);
  const what = target.name === undefined ? target.method : `${target.method} "${target.name}"`;
  const scope = access.stepUp?.(access, caller, target, tools.mutating);
  throw new HttpError(403, `Forbidden: this caller may not use ${what} on this server.`, {
    "WWW-Authenticate": `Bearer error="insufficient_scope"${scope ? `, scope="${scope}"` : ""}${access.metadataUrl ? `, resource_metadata="${access.metadataUrl}"` : ""}`,
  });
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
  tools: ToolAccess,
): ((tool: string) => boolean) | undefined {
  if (!access || access.catalogReader) return undefined;
  // Without rules, only an anonymous caller's access can make a difference (see decide()): a
  // list of 1000 tools is not asked 1000 times what the answer always is.
  const limitedAnonymous =
    caller === undefined && access.credentialsConfigured && access.anonymous !== "all";
  if (!access.rules && !limitedAnonymous) return undefined;
  const allowed = (name: string) =>
    decide(access, caller, { method: "tools/call", name }, tools.mutating) === "allow";
  for (const name of tools.names()) if (!allowed(name)) return allowed;
  return undefined;
}
