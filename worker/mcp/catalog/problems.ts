import { errorText } from "../../../shared/error-text.ts";
import { NAME_PATTERN } from "../../../shared/protocol/primitives.ts";

/**
 * A server definition that clients would reject or the runtime cannot serve, found when the
 * server is defined: every problem at once, each saying what to change.
 */
export class DefinitionError extends Error {
  override readonly name = "DefinitionError";

  constructor(
    readonly server: string,
    readonly problems: readonly string[],
  ) {
    const count = problems.length === 1 ? "a problem" : `${problems.length} problems`;
    super(
      `Server "${server}" has ${count} in its definition:\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
  }
}

/** Collects a definition's problems while its catalog is built. */
export class Problems {
  readonly list: string[] = [];

  add(problem: string): void {
    this.list.push(problem);
  }

  /** Runs a step that throws on a problem; the problem is kept and `undefined` returned. */
  attempt<T>(what: string, step: () => T): T | undefined {
    try {
      return step();
    } catch (error) {
      this.add(`${what}: ${errorText(error)}`);
      return undefined;
    }
  }

  /** Checks a tool or prompt name: the protocol's pattern, and once per kind. */
  name(kind: "tool" | "prompt", name: unknown, seen: { has(name: string): boolean }): boolean {
    if (typeof name !== "string" || !NAME_PATTERN.test(name)) {
      const suggestion =
        typeof name === "string" && name.trim() !== ""
          ? ` (e.g. "${name
              .trim()
              .replace(/[^A-Za-z0-9_.-]+/g, "_")
              .slice(0, 128)}")`
          : "";
      this.add(
        `${kind} ${JSON.stringify(name)}: a ${kind} name is 1-128 characters of A-Z a-z 0-9 _ . - with no spaces; rename it${suggestion}.`,
      );
      return false;
    }
    if (seen.has(name)) {
      this.add(`${kind} "${name}" is defined twice: give each ${kind} its own name.`);
      return false;
    }
    return true;
  }

  /** Throws a DefinitionError listing every problem, if there is any. */
  throwIfAny(server: string): void {
    if (this.list.length > 0) throw new DefinitionError(server, this.list);
  }
}
