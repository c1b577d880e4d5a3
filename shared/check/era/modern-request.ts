import { isJsonObject } from "../../jsonrpc.ts";
import type { JsonObject } from "../../protocol/messages.ts";
import { decodeHeaderValue, Header } from "../../protocol/headers.ts";
import { MetaKey } from "../../protocol/meta.ts";
import { NAME_PARAM } from "../../protocol/methods.ts";
import { error, type Finding } from "../finding.ts";
import { headerOf, type HeaderBag } from "../headers.ts";

function routingFindings(method: string, params: JsonObject, headers: HeaderBag): Finding[] {
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

/** A 2026 request: the required `_meta` keys, and the routing headers that must agree with it. */
export function modernRequestFindings(
  method: string,
  params: JsonObject,
  headers: HeaderBag,
): Finding[] {
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
  return [...findings, ...routingFindings(method, params, headers)];
}
