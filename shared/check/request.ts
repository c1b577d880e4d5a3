import { isJsonObject } from "../jsonrpc.ts";
import { decodeHeaderValue, Header } from "../protocol/headers.ts";
import { MetaKey } from "../protocol/meta.ts";
import { NAME_PARAM } from "../protocol/methods.ts";
import { isHandshakeEraVersion } from "../protocol/versions.ts";
import { error, type Finding } from "./finding.ts";
import { headerOf, type HeaderBag } from "./headers.ts";

/** Which era a request was sent in: 2026 requests carry the version in `_meta`. */
export function requestEra(body: unknown, headers: HeaderBag): "modern" | "legacy" {
  const params = isJsonObject(body) && isJsonObject(body.params) ? body.params : {};
  const meta = isJsonObject(params._meta) ? params._meta : {};
  if (typeof meta[MetaKey.protocolVersion] === "string") return "modern";
  const version = headerOf(headers, Header.protocolVersion);
  return version !== undefined && !isHandshakeEraVersion(version) ? "modern" : "legacy";
}

function routingFindings(
  method: string,
  params: Record<string, unknown>,
  headers: HeaderBag,
): Finding[] {
  const findings: Finding[] = [];
  const sentMethod = headerOf(headers, Header.method);
  if (sentMethod?.trim() !== method)
    findings.push(
      error(
        "header.mcp-method",
        `Mcp-Method is ${sentMethod ?? "missing"}; the body's method is ${method}.`,
      ),
    );
  const member = NAME_PARAM[method];
  if (member !== undefined) {
    const sentName = headerOf(headers, Header.name);
    const decoded = sentName === undefined ? undefined : decodeHeaderValue(sentName);
    const value = decoded?.ok ? decoded.value : undefined;
    if (value !== params[member])
      findings.push(
        error(
          "header.mcp-name",
          `Mcp-Name must mirror params.${member} (${String(params[member])}).`,
        ),
      );
  }
  return findings;
}

/**
 * Checks one client request as sent: a JSON-RPC request or notification; on 2026, the required
 * `_meta` keys and the routing headers that must agree with the body.
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
  if (requestEra(body, headers) === "legacy" || !("id" in body)) return [];
  const params = isJsonObject(body.params) ? body.params : {};
  const meta = isJsonObject(params._meta) ? params._meta : {};
  const findings: Finding[] = [];
  for (const key of [MetaKey.protocolVersion, MetaKey.clientCapabilities])
    if (!(key in meta)) findings.push(error("request.meta", `_meta lacks the required ${key}.`));
  const version = headerOf(headers, Header.protocolVersion);
  if (version?.trim() !== meta[MetaKey.protocolVersion])
    findings.push(
      error(
        "header.protocol-version",
        `MCP-Protocol-Version (${version ?? "missing"}) must equal _meta's protocolVersion.`,
      ),
    );
  return [...findings, ...routingFindings(body.method, params, headers)];
}
