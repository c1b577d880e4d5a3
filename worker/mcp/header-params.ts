import type { JsonObject } from "../../shared/protocol/messages.ts";
import {
  headerDeclarationsOf,
  type HeaderParam,
} from "../../shared/protocol/header-declarations.ts";

export type { HeaderParam };

/**
 * Collects the `x-mcp-header` annotations of a tool's input schema, and throws when one breaks
 * the transport's rules (clients drop such tools, so it is a bug in the server definition).
 */
export function collectHeaderParams(toolName: string, inputSchema: JsonObject): HeaderParam[] {
  const declarations = headerDeclarationsOf(inputSchema);
  if (!declarations.ok) {
    throw new Error(`Tool "${toolName}" has an invalid x-mcp-header: ${declarations.reason}.`);
  }
  return declarations.params;
}
