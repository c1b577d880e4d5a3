/** One line of `EXPLAIN QUERY PLAN`. */
export type PlanRow = { id: number; parent: number; detail: string };

/** What the estimate knows besides the plan: table sizes and recursive CTEs' row counts. */
export type PlanFacts = {
  /** Rows per table, by lower-cased table name. */
  tableRows: ReadonlyMap<string, number>;
  /** Lower-cased alias → lower-cased table name, as written in the statement. */
  aliases: ReadonlyMap<string, string>;
  /** Rows a recursive CTE produces, by lower-cased name, when measured. */
  recursiveRows: ReadonlyMap<string, number>;
  /** Rows assumed for a recursive CTE not measured. */
  assumedRecursiveRows: number;
};

export type PlanEstimate = {
  /** About how many rows the statement visits, all loops and subqueries counted. */
  rows: number;
  /** The costliest loop nest, in words (`error_logs a × error_logs b`). */
  worst: string;
  /** Recursive CTEs in the plan, lower-cased. */
  recursive: string[];
  /** Loops over a virtual table that is not a stored one: table-valued functions. */
  functionLoops: string[];
};

type Node = PlanRow & { children: Node[] };
type Nest = { visits: number; rows: number; loops: string[] };

/** The CTE or subquery a plan line names (`MATERIALIZE n`, `CO-ROUTINE n`). */
const namedSubquery = /^(?:MATERIALIZE|CO-ROUTINE) (\S+)/;
const loopLine = /^(SCAN|SEARCH) (\S+)(?: USING (.*))?/;

/**
 * An upper estimate of the rows a statement visits, from its query plan. Nested loops
 * multiply (a join without a usable index is the product of its tables), a correlated
 * subquery runs once per outer row, a recursive CTE counts the rows it produces. Without
 * statistics, an index lookup on equality is taken to find √n of n rows, a range a quarter.
 */
export function estimatePlan(plan: PlanRow[], facts: PlanFacts): PlanEstimate {
  const nodes = new Map<number, Node>();
  const root: Node = { id: 0, parent: -1, detail: "", children: [] };
  nodes.set(0, root);
  for (const row of plan) nodes.set(row.id, { ...row, children: [] });
  for (const row of plan) (nodes.get(row.parent) ?? root).children.push(nodes.get(row.id)!);

  const produced = new Map<string, number>(); // rows a materialized subquery or CTE yields
  const recursive: string[] = [];
  const functionLoops: string[] = [];
  let worst = { weight: 0, loops: [] as string[] };

  const biggest = Math.max(1, ...facts.tableRows.values());
  const sourceRows = (name: string): number => {
    const key = name.toLowerCase();
    return (
      facts.tableRows.get(key) ??
      facts.tableRows.get(facts.aliases.get(key) ?? "") ??
      produced.get(key) ??
      biggest
    );
  };
  const isStored = (name: string) => {
    const key = name.toLowerCase();
    return facts.tableRows.has(key) || facts.tableRows.has(facts.aliases.get(key) ?? "");
  };
  const label = (name: string) => {
    const key = name.toLowerCase();
    const table = facts.aliases.get(key);
    return table && table !== key ? `${table} ${name}` : name;
  };

  /** Rows a loop line visits per outer row. */
  const loopRows = (kind: string, name: string, using: string | undefined): number => {
    if (name === "CONSTANT") return 1;
    const values = /^(\d+)-ROW$/.exec(name); // SCAN 3-ROW VALUES CLAUSE
    if (values) return Number(values[1]);
    const n = sourceRows(name);
    if (kind === "SCAN") return n;
    const constraint = /\(([^)]*)\)\s*$/.exec(using ?? "")?.[1] ?? "";
    // A search naming no constraint (min/max over an index, say) may still read every entry.
    if (constraint === "") return n;
    if (/^rowid=\?$/.test(constraint)) return 1;
    if (/[<>]/.test(constraint)) return Math.max(1, Math.ceil(n / 4));
    return Math.max(1, Math.ceil(Math.sqrt(n)));
  };

  /** The rows one pass of `siblings` visits and yields, with `outer` rows driving it. */
  const nest = (siblings: Node[], outer: number): Nest => {
    let visits = 0;
    let rows = 1;
    const loops: string[] = [];
    for (const node of siblings) {
      const loop = loopLine.exec(node.detail);
      const sub = namedSubquery.exec(node.detail);
      if (loop) {
        const [, kind, name, using] = loop;
        const automatic = /AUTOMATIC/.test(using ?? "");
        if (/ VIRTUAL TABLE /.test(node.detail) && !isStored(name!)) functionLoops.push(name!);
        if (automatic) visits += sourceRows(name!); // building the index
        rows *= loopRows(kind!, name!, using);
        visits += rows * outer;
        loops.push(label(name!));
        if (node.children.length > 0) visits += nest(node.children, rows * outer).visits;
      } else if (sub) {
        const name = sub[1]!.toLowerCase();
        const step = node.children.find((c) => c.detail === "RECURSIVE STEP");
        if (step) {
          recursive.push(name);
          const count = facts.recursiveRows.get(name) ?? facts.assumedRecursiveRows;
          const setup = node.children.filter((c) => c !== step);
          produced.set(name, 1); // the recursive step reads its queue one row at a time
          visits += nest(setup, 1).visits + nest(step.children, count).visits;
          produced.set(name, count);
        } else {
          const inner = nest(node.children, 1);
          visits += inner.visits;
          produced.set(name, inner.rows);
        }
      } else if (/^CORRELATED /.test(node.detail)) {
        visits += nest(node.children, rows * outer).visits;
      } else if (node.detail === "COMPOUND QUERY") {
        let total = 0;
        for (const arm of node.children) {
          const part = nest(arm.children, outer);
          visits += part.visits;
          total += part.rows;
        }
        rows *= Math.max(1, total);
      } else if (node.detail === "MULTI-INDEX OR") {
        let total = 0;
        for (const index of node.children) {
          const part = nest(index.children, 1);
          total += part.rows;
          loops.push(...part.loops);
        }
        rows *= Math.max(1, total);
        visits += rows * outer;
      } else if (node.children.length > 0) {
        visits += nest(node.children, 1).visits; // a subquery run once (LIST, SCALAR, ...)
      }
    }
    if (rows * outer > worst.weight) worst = { weight: rows * outer, loops };
    return { visits, rows, loops };
  };

  const total = nest(root.children, 1);
  return { rows: total.visits, worst: worst.loops.join(" × "), recursive, functionLoops };
}

const ALIAS_STOP = new Set([
  "WHERE",
  "JOIN",
  "ON",
  "USING",
  "LEFT",
  "RIGHT",
  "FULL",
  "INNER",
  "OUTER",
  "CROSS",
  "NATURAL",
  "GROUP",
  "ORDER",
  "LIMIT",
  "HAVING",
  "WINDOW",
  "UNION",
  "EXCEPT",
  "INTERSECT",
  "INDEXED",
  "NOT",
  "AS",
]);

/**
 * Aliases given to known tables in a statement's skeleton (`FROM error_logs a`, `orders AS o`):
 * the plan names loops by alias, and an alias the estimate cannot place counts as the biggest
 * table.
 */
export function tableAliases(shape: string, tables: Iterable<string>): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const table of tables) {
    const escaped = table.replace(/[^\w]/g, "\\$&");
    const pattern = new RegExp(`\\b${escaped}\\s+(?:AS\\s+)?([A-Za-z_]\\w*)`, "gi");
    for (const match of shape.matchAll(pattern)) {
      const alias = match[1]!;
      if (!ALIAS_STOP.has(alias.toUpperCase())) aliases.set(alias.toLowerCase(), table);
    }
  }
  return aliases;
}
