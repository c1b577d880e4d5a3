import { isJsonObject } from "../../shared/jsonrpc.ts";
import type { JsonObject } from "../../shared/protocol/messages.ts";
import { encodeHeaderValue, Header } from "../../shared/protocol/headers.ts";
import { MetaKey } from "../../shared/protocol/meta.ts";
import { NAME_PARAM } from "../../shared/protocol/methods.ts";

/** The version a 2026-era message states in its `_meta`; absent on 2025-era messages. */
export function modernVersionOf(params: JsonObject | undefined): string | undefined {
  const meta = params?._meta;
  const version = isJsonObject(meta) ? meta[MetaKey.protocolVersion] : undefined;
  return typeof version === "string" ? version : undefined;
}

/**
 * The headers a 2026-era request must carry, mirroring its body: the version, the method, the
 * name or URI, and the tool arguments declared with `x-mcp-header`.
 */
export function modernHeaders(
  version: string,
  method: string,
  params: JsonObject,
  paramValues: Readonly<Record<string, string>>,
): Record<string, string> {
  const headers: Record<string, string> = {
    [Header.protocolVersion]: version,
    [Header.method]: method,
  };
  const member = NAME_PARAM[method];
  const name = member === undefined ? undefined : params[member];
  if (typeof name === "string") headers[Header.name] = encodeHeaderValue(name);
  for (const [suffix, value] of Object.entries(paramValues)) {
    headers[`${Header.paramPrefix}${suffix}`] = value;
  }
  return headers;
}
