import { ErrorCode, RpcError } from "../../../../shared/protocol/errors.ts";
import {
  headerArgument,
  type HeaderParam,
} from "../../../../shared/protocol/header-declarations.ts";
import { decodeHeaderValue, Header } from "../../../../shared/protocol/headers.ts";
import type { JsonObject, JsonRpcRequest } from "../../../../shared/protocol/messages.ts";
import { MetaKey } from "../../../../shared/protocol/meta.ts";
import { NAME_PARAM } from "../../../../shared/protocol/methods.ts";
import { MODERN_VERSION, SUPPORTED_VERSIONS } from "../../../../shared/protocol/versions.ts";

function mismatch(message: string): RpcError {
  return new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`, undefined, 400);
}

/**
 * Checks a 2026 request's routing headers against its body, in this order: `MCP-Protocol-Version`
 * against the `_meta` version (-32020), the version itself (-32022), `Mcp-Method` (-32020), and
 * `Mcp-Name` where the method names something (-32020).
 */
export function checkRoutingHeaders(
  message: JsonRpcRequest,
  version: string,
  headers: Headers,
): void {
  const { method, params } = message;
  const headerVersion = headers.get(Header.protocolVersion)?.trim();
  if (headerVersion === undefined) {
    throw mismatch(
      `the ${Header.protocolVersion} header is required and must equal _meta "${MetaKey.protocolVersion}" ("${version}").`,
    );
  }
  if (headerVersion !== version) {
    throw mismatch(
      `${Header.protocolVersion} header "${headerVersion}" does not match _meta "${MetaKey.protocolVersion}" "${version}".`,
    );
  }
  if (version !== MODERN_VERSION) {
    throw new RpcError(
      ErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version "${version}". This server speaks ${MODERN_VERSION} per request, and ${SUPPORTED_VERSIONS.slice(1).join(", ")} through initialize.`,
      { supported: SUPPORTED_VERSIONS, requested: version },
      400,
    );
  }

  const headerMethod = headers.get(Header.method)?.trim();
  if (headerMethod === undefined)
    throw mismatch(
      `the ${Header.method} header is required and must equal the body's method ("${method}").`,
    );
  if (headerMethod !== method)
    throw mismatch(
      `${Header.method} header "${headerMethod}" does not match the body's method "${method}".`,
    );

  const nameKey = NAME_PARAM[method];
  const bodyName = nameKey ? params?.[nameKey] : undefined;
  if (nameKey && typeof bodyName === "string") {
    const raw = headers.get(Header.name);
    if (raw === null)
      throw mismatch(
        `the ${Header.name} header is required for ${method} and must equal params.${nameKey}.`,
      );
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) throw mismatch(`${Header.name} ${decoded.reason}.`);
    if (decoded.value !== bodyName) {
      throw mismatch(
        `${Header.name} header ${JSON.stringify(decoded.value)} does not match params.${nameKey} ${JSON.stringify(bodyName)}.`,
      );
    }
  }
}

/** Checks every `Mcp-Param-*` header a tool declares against the arguments in the body (-32020). */
export function checkParamHeaders(
  params: readonly HeaderParam[],
  args: JsonObject,
  headers: Headers,
): void {
  for (const param of params) {
    const name = `${Header.paramPrefix}${param.header}`;
    const raw = headers.get(name);
    const value = headerArgument(args, param.path);
    const where = `argument "${param.path.join(".")}"`;
    if (raw === null) {
      if (value !== undefined)
        throw mismatch(`${name} is required because ${where} is present in the body.`);
      continue;
    }
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) throw mismatch(`${name} ${decoded.reason}.`);
    if (value === undefined) throw mismatch(`${name} is set but ${where} is absent from the body.`);
    if (!matches(param, decoded.value, value)) {
      throw mismatch(
        `${name} value ${JSON.stringify(decoded.value)} does not match ${where} (${JSON.stringify(value)}).`,
      );
    }
  }
}

function matches(param: HeaderParam, header: string, value: unknown): boolean {
  switch (param.type) {
    case "string":
      return header === value;
    case "boolean":
      return header === String(value);
    case "integer":
      // Integers compare numerically: "42.0" and 42 are the same value.
      return header.trim() !== "" && Number(header) === value;
  }
}
