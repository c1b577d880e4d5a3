import type { Sealing } from "../context/handles.ts";
import type { ServerDefinition } from "./definition.ts";

/** The sealing a server links: its own, or the one its input rounds bring (requestState). */
export function sealingOf(
  definition: Pick<ServerDefinition, "sealing" | "input">,
): Sealing | undefined {
  return definition.sealing ?? definition.input?.sealing;
}

/**
 * What is wrong with a server whose lists page without sealing: a list longer than one page
 * needs sealed cursors. `counts`: the items each list has (at least) when the server is defined.
 */
export function unsealedPaging(
  definition: Pick<ServerDefinition, "sealing" | "input">,
  counts: Readonly<Record<string, number>>,
  pageSize: Readonly<Record<string, number>>,
): string[] {
  if (sealingOf(definition)) return [];
  // A loop, not filter and map: their callbacks would be compiled at every start-up.
  const problems: string[] = [];
  for (const key of Object.keys(counts)) {
    const count = counts[key] ?? 0;
    if (count > (pageSize[key] ?? Infinity))
      problems.push(
        `the ${key} list has ${count} items, more than one page (pageSize ${pageSize[key]}), and its cursors are sealed: import { sealing } from "edgemcp/server" and add \`sealing\` to the server's definition (it needs EDGEMCP_SECRET), or raise pageSize.`,
      );
  }
  return problems;
}
