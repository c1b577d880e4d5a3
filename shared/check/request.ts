import { isJsonObject } from "../jsonrpc.ts";
import { MESSAGE_RULES, requestEra } from "./era/index.ts";
import { error, type Finding } from "./finding.ts";
import type { HeaderBag } from "./headers.ts";

/**
 * Checks one client request as sent: a JSON-RPC request or notification, then what its era
 * requires (on 2026, the `_meta` keys and the routing headers that must agree with the body).
 */
export function checkRequest(body: unknown, headers: HeaderBag): Finding[] {
  if (!isJsonObject(body) || body.jsonrpc !== "2.0")
    return [error("request.envelope", "The body is not a JSON-RPC 2.0 object.")];
  if (typeof body.method !== "string")
    return "result" in body || "error" in body
      ? []
      : [error("request.envelope", "The message has no method.")];
  if (body.params !== undefined && !isJsonObject(body.params))
    return [error("request.params", "params must be an object.")];
  if (!("id" in body)) return [];
  const params = isJsonObject(body.params) ? body.params : {};
  return MESSAGE_RULES[requestEra(body, headers)].request(body.method, params, headers);
}
