import {
  headerDeclarationsOf,
  type HeaderDeclarations,
  type HeaderParam,
} from "../protocol/header-declarations.ts";
import { taskSupportOf, type TaskSupport, type Tool } from "../protocol/primitives.ts";

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

/**
 * The tools seen in lists: their header declarations, for mirroring `Mcp-Param-*` (2026), and
 * their task support, for asking to run them as tasks (2025-11-25).
 */
export class ToolIndex {
  private readonly params = new Map<string, HeaderParam[]>();
  private readonly support = new Map<string, TaskSupport>();
  /** True once a whole list was recorded since the last reset. */
  complete = false;
  /** True once a whole list's task support was noted since the last reset. */
  supportComplete = false;

  /** Notes each tool's task support. */
  noteSupport(tools: readonly Tool[]): void {
    for (const tool of tools) this.support.set(tool.name, taskSupportOf(tool));
  }

  taskSupport(name: string): TaskSupport | undefined {
    return this.support.get(name);
  }

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
    this.support.clear();
    this.complete = false;
    this.supportComplete = false;
  }
}
