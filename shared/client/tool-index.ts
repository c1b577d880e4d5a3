import {
  headerArgument,
  headerDeclarationsOf,
  type HeaderDeclarations,
  type HeaderParam,
} from "../protocol/header-declarations.ts";
import { encodeHeaderValue } from "../protocol/headers.ts";
import type { Tool } from "../protocol/primitives.ts";

// Cached lists hand back the same Tool objects: their schemas are checked once, not per list.
const checked = new WeakMap<Tool, HeaderDeclarations>();

function declarationsOf(tool: Tool): HeaderDeclarations {
  let declarations = checked.get(tool);
  if (declarations === undefined) {
    declarations = headerDeclarationsOf(tool.inputSchema);
    checked.set(tool, declarations);
  }
  return declarations;
}

/** The tools seen in lists, with their header declarations, for mirroring `Mcp-Param-*`. */
export class ToolIndex {
  private readonly params = new Map<string, HeaderParam[]>();
  /** True once a whole list was recorded since the last reset. */
  complete = false;

  /** Records tools and returns those with valid declarations; reports the others. */
  record(tools: readonly Tool[], warn: (message: string) => void): Tool[] {
    return tools.filter((tool) => {
      const declarations = declarationsOf(tool);
      if (!declarations.ok) {
        this.params.delete(tool.name);
        warn(`Dropped tool "${tool.name}": ${declarations.reason}.`);
        return false;
      }
      this.params.set(tool.name, declarations.params);
      return true;
    });
  }

  headerParams(name: string): readonly HeaderParam[] | undefined {
    return this.params.get(name);
  }

  reset(): void {
    this.params.clear();
    this.complete = false;
  }
}

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
