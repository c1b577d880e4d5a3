/** A common table expression of a statement's top-level WITH clause. */
export type Cte = {
  /** Its name as written, without quotes. */
  name: string;
  /** Its name as a plan line shows it: unquoted, lower-cased. */
  key: string;
  /** The index just after its closing parenthesis. */
  end: number;
};

/** The index of the parenthesis that closes the one at `open`, in a skeleton. */
function closing(shape: string, open: number): number {
  let depth = 0;
  for (let i = open; i < shape.length; i++) {
    if (shape[i] === "(") depth++;
    else if (shape[i] === ")" && --depth === 0) return i;
  }
  return -1;
}

/**
 * The CTEs of a statement that starts with `WITH`, read from its skeleton (literals and
 * comments blanked, same length as `sql`), so `sql.slice(0, cte.end)` is a WITH clause that
 * ends with that CTE. Undefined when the clause is not in a shape this reader knows.
 */
export function topLevelCtes(sql: string, shape: string): Cte[] | undefined {
  const token = /\s*(\w+|\(|,)/y; // a quoted name is a run of q in the skeleton
  const next = (at: number): [string, number] | undefined => {
    token.lastIndex = at;
    const match = token.exec(shape);
    return match ? [match[1]!, token.lastIndex] : undefined;
  };
  let at = 0;
  const first = next(at);
  if (first?.[0].toUpperCase() !== "WITH") return undefined;
  at = first[1];
  const maybeRecursive = next(at);
  if (maybeRecursive?.[0].toUpperCase() === "RECURSIVE") at = maybeRecursive[1];
  const ctes: Cte[] = [];
  for (;;) {
    const name = next(at);
    if (!name || name[0] === "(" || name[0] === ",") return undefined;
    const nameStart = name[1] - name[0].length;
    const written = sql.slice(nameStart, name[1]);
    at = name[1];
    let word = next(at);
    if (word?.[0] === "(") {
      const close = closing(shape, word[1] - 1);
      if (close === -1) return undefined;
      at = close + 1;
      word = next(at);
    }
    if (word?.[0].toUpperCase() !== "AS") return undefined;
    at = word[1];
    word = next(at);
    if (word?.[0].toUpperCase() === "NOT") word = next(word[1]);
    if (word?.[0].toUpperCase() === "MATERIALIZED") word = next(word[1]);
    if (word?.[0] !== "(") return undefined;
    const close = closing(shape, word[1] - 1);
    if (close === -1) return undefined;
    at = close + 1;
    ctes.push({ name: written, key: written.toLowerCase(), end: at });
    const comma = next(at);
    if (comma?.[0] !== ",") return ctes;
    at = comma[1];
  }
}
