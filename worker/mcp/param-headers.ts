import { decodeHeaderValue, Header } from "../../shared/protocol/headers.ts";
import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import type { JsonObject } from "../../shared/protocol/messages.ts";
import type { CompiledTool } from "./catalog.ts";
import { headerArgument, type HeaderParam } from "../../shared/protocol/header-declarations.ts";

function mismatch(message: string): RpcError {
  return new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`, undefined, 400);
}

/** Checks every `Mcp-Param-*` header the tool declares against the arguments in the body. */
export function checkParamHeaders(tool: CompiledTool, args: JsonObject, headers: Headers): void {
  for (const param of tool.headerParams) {
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
