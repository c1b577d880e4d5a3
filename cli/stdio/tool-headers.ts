import { isJsonObject } from "../../shared/jsonrpc.ts";
import type { JsonObject } from "../../shared/protocol/messages.ts";
import {
  headerDeclarationsOf,
  paramHeaderValues,
  type HeaderParam,
} from "../../shared/protocol/header-declarations.ts";

/**
 * The `x-mcp-header` declarations of the tools the bridge has seen listed, so a `tools/call`
 * goes out with its `Mcp-Param-*` headers. Tools whose declarations break the transport's
 * rules are dropped from the lists the host gets, as HTTP clients must.
 */
export class ToolHeaders {
  private readonly params = new Map<string, HeaderParam[]>();
  /** True once every page of a list went through since the last change. */
  complete = false;
  private walking = false;

  constructor(private readonly warn: (message: string) => void) {}

  /** Records one `tools/list` page and returns it without the unusable tools. */
  learn(result: JsonObject, firstPage: boolean): JsonObject {
    if (firstPage) {
      this.params.clear();
      this.complete = false;
      this.walking = true;
    }
    const tools = Array.isArray(result.tools) ? result.tools : [];
    const usable = tools.filter((tool: unknown) => {
      if (!isJsonObject(tool) || typeof tool.name !== "string") return true;
      const declarations = headerDeclarationsOf(
        isJsonObject(tool.inputSchema) ? tool.inputSchema : {},
      );
      if (!declarations.ok) {
        this.warn(`Dropped tool "${tool.name}": ${declarations.reason}.`);
        return false;
      }
      this.params.set(tool.name, declarations.params);
      return true;
    });
    if (typeof result.nextCursor !== "string" && this.walking) {
      this.complete = true;
      this.walking = false;
    }
    return usable.length === tools.length ? result : { ...result, tools: usable };
  }

  /** True when the tool's declarations are known (or known not to exist). */
  knows(name: string): boolean {
    return this.complete || this.params.has(name);
  }

  /** The `Mcp-Param-*` values of a call, by header suffix. */
  valuesFor(name: string, args: JsonObject): Record<string, string> {
    const params = this.params.get(name);
    return params ? paramHeaderValues(params, args) : {};
  }

  /** Forgets everything: the list changed. */
  reset(): void {
    this.params.clear();
    this.complete = false;
    this.walking = false;
  }
}
