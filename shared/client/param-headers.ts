import { headerArgument, type HeaderParam } from "../protocol/header-declarations.ts";
import { encodeHeaderValue } from "../protocol/headers.ts";

/** The header text of one argument, or undefined when it is absent, null or not a primitive. */
function headerText(value: unknown): string | undefined {
  if (typeof value === "string") return encodeHeaderValue(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** `Mcp-Param-*` values (by header suffix) for a call's arguments. */
export function paramHeaderValues(
  params: readonly HeaderParam[],
  args: Record<string, unknown>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    const text = headerText(headerArgument(args, param.path));
    if (text !== undefined) headers[param.header] = text;
  }
  return headers;
}
