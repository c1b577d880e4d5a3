import { toBase64 } from "../base64.ts";
import { isHandshakeEraVersion } from "./versions.ts";

/** HTTP headers of the Streamable HTTP transport (names are case-insensitive on the wire). */
export enum Header {
  protocolVersion = "MCP-Protocol-Version",
  method = "Mcp-Method",
  name = "Mcp-Name",
  paramPrefix = "Mcp-Param-",
  sessionId = "Mcp-Session-Id",
}

// Anything wrapped in the (exact, lowercase) markers is encoded, whatever is inside: the
// encoder wraps every value that looks like this, so none is ever meant literally.
const SENTINEL = /^=\?base64\?(.*)\?=$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
// RFC 9110 field-value characters: visible ASCII, space and tab.
const HEADER_SAFE = /^[\x20-\x7e\t]*$/;
// RFC 9110 token characters, for header names built from x-mcp-header.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function isHeaderToken(value: string): boolean {
  return TOKEN.test(value);
}

// An empty value is sent as the empty sentinel: some intermediaries drop empty header fields.
function needsEncoding(value: string): boolean {
  return (
    value === "" ||
    !HEADER_SAFE.test(value) ||
    value !== value.trim() ||
    (value.startsWith("=?base64?") && value.endsWith("?="))
  );
}

/** Encodes a value for `Mcp-Name` / `Mcp-Param-*`, using the base64 sentinel only when needed. */
export function encodeHeaderValue(value: string): string {
  return needsEncoding(value) ? `=?base64?${toBase64(new TextEncoder().encode(value))}?=` : value;
}

export type DecodedHeader = { ok: true; value: string } | { ok: false; reason: string };

/** Decodes a received `Mcp-Name` / `Mcp-Param-*` value (the sentinel is exact and lowercase). */
export function decodeHeaderValue(raw: string): DecodedHeader {
  const value = raw.trim();
  if (!HEADER_SAFE.test(value)) {
    return {
      ok: false,
      reason: "contains characters outside visible ASCII; send it base64-encoded",
    };
  }
  const match = SENTINEL.exec(value);
  if (!match) return { ok: true, value };
  const b64 = match[1] ?? "";
  if (!BASE64.test(b64))
    return {
      ok: false,
      reason: "has a base64 payload with characters outside the base64 alphabet",
    };
  if (b64.length % 4 !== 0) return { ok: false, reason: "has a base64 payload of invalid length" };
  try {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    return {
      ok: true,
      value: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes),
    };
  } catch {
    return { ok: false, reason: "has a base64 payload that is not valid UTF-8" };
  }
}

/**
 * Whether a request's `MCP-Protocol-Version` header names the 2026-07-28 revision (or a later
 * one): present, and not an older dated version that a 2025 client negotiated by `initialize`.
 */
export function carriesModernVersion(headers: Headers): boolean {
  const header = headers.get(Header.protocolVersion)?.trim();
  return header !== undefined && !isHandshakeEraVersion(header);
}

/**
 * What a request's routing headers say it asks for, when they are the 2026-07-28 ones a gateway
 * routes and authorizes by (`MCP-Protocol-Version` of that era and `Mcp-Method`, with `Mcp-Name`
 * when it decodes); undefined otherwise, and then only the body can tell.
 */
export function routingTarget(headers: Headers): { method: string; name?: string } | undefined {
  const method = headers.get(Header.method)?.trim();
  if (!method || !carriesModernVersion(headers)) return undefined;
  const raw = headers.get(Header.name);
  const decoded = raw === null ? undefined : decodeHeaderValue(raw);
  return decoded?.ok ? { method, name: decoded.value } : { method };
}
