import type { Tool } from "../protocol/primitives.ts";
import { headerDeclarationsOf, type HeaderParam } from "../protocol/header-declarations.ts";

/** The tools seen in lists, with their header declarations, for mirroring `Mcp-Param-*`. */
export class ToolIndex {
  private readonly params = new Map<string, HeaderParam[]>();
  /** True once a whole list was recorded since the last reset. */
  complete = false;

  /** Records tools and returns those with valid declarations; reports the others. */
  record(tools: readonly Tool[], warn: (message: string) => void): Tool[] {
    return tools.filter((tool) => {
      const declarations = headerDeclarationsOf(tool.inputSchema);
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
