import { checkProgramIsReadOnly } from "./bytecode-guard.ts";
import { topLevelCtes } from "./ctes.ts";
import {
  checkTableFunctions,
  checkVirtualLoops,
  generatedBytesPerRow,
  namesView,
} from "./generated-input.ts";
import { estimatePlan, tableAliases, type PlanEstimate, type PlanRow } from "./plan-cost.ts";
import { checkReadOnly, skeleton, SqlRefusal, type ReadStatement } from "./sql-guard.ts";
import { listTables, quoteIdentifier } from "./tables.ts";
import { databaseOf, type Queryable } from "./metered-db.ts";
import { d1Refusal } from "./d1-errors.ts";

export type QueryPage = { columns: string[]; rows: Record<string, unknown>[]; hasMore: boolean };

/**
 * What one query may cost. D1 runs one statement at a time per database and cannot stop one
 * that has started (aborting the request does not), so a statement whose plan could hold the
 * database is refused before it runs, and an answer is cut into pages by size as well as rows.
 */
export const QUERY_BOUNDS = {
  /** Rows a statement's plan may visit, all loops and subqueries counted. */
  maxRowVisits: 5_000_000,
  /** Rows a recursive CTE may produce. */
  maxRecursiveRows: 100_000,
  /** Bytes of values one page may carry (each value counted as its text or blob length). */
  maxPageBytes: 256_000,
  /** Bytes functions may make (`replace`, `hex`, `printf`, `zeroblob`, …), times the rows visited. */
  maxGeneratedBytes: 32_000_000,
} as const;

const number = (n: number) => Math.round(n).toLocaleString("en-US");

/** A statement both guards and the cost bound let through, ready to be paged. */
export type CheckedStatement = { sql: string; explain: boolean };

/**
 * Checks one read-only statement: both guards, then the cost bound. What the text alone
 * shows is refused before the statement reaches the database. Throws a `SqlRefusal`.
 */
export async function checkStatement(db: Queryable, sql: string): Promise<CheckedStatement> {
  const statement = checkReadOnly(sql);
  const text = statement.keyword === "EXPLAIN" ? undefined : checkText(statement);
  await checkProgramIsReadOnly(db, statement.program);
  if (text) await checkCost(db, statement, text);
  return { sql: statement.sql, explain: text === undefined };
}

/**
 * One page of a checked statement. SELECT, WITH and VALUES queries are paged by wrapping them
 * (`LIMIT`/`OFFSET`), at most `pageSize` rows and `QUERY_BOUNDS.maxPageBytes`; EXPLAIN returns
 * whole. Rows are read with `all()`, which reports the statement's database time (a subquery's
 * columns have unique names, so no value is lost to a repeated one).
 */
export async function readPage(
  db: Queryable,
  statement: CheckedStatement,
  offset: number,
  pageSize: number,
): Promise<QueryPage> {
  if (statement.explain) {
    const [columns, ...raw] = await run(db.prepare(statement.sql));
    return { columns: names(columns), rows: objects(names(columns), raw), hasMore: false };
  }
  // Line breaks keep a trailing `--` comment from swallowing the closing parenthesis.
  const wrapped = `SELECT * FROM (\n${statement.sql}\n)`;
  const [header] = await run(db.prepare(`${wrapped} LIMIT 0`));
  const columns = names(header);
  const count = await rowsThatFit(db, wrapped, columns.length, offset, pageSize);
  if (count.fit === 0) {
    return { columns, rows: [], hasMore: false };
  }
  const page = await all(db.prepare(`${wrapped} LIMIT ?1 OFFSET ?2`).bind(count.fit, offset));
  const raw = page.map((row) => columns.map((name) => row[name]));
  return { columns, rows: objects(columns, raw), hasMore: count.more };
}

/** How many rows from `offset` fit in a page, measured in the database before any is read. */
async function rowsThatFit(
  db: Queryable,
  wrapped: string,
  width: number,
  offset: number,
  pageSize: number,
): Promise<{ fit: number; more: boolean }> {
  if (width === 0) return { fit: 0, more: false };
  const list = Array.from({ length: width }, (_, i) => `c${i}`);
  const size = list.map((c) => `coalesce(length(CAST(${c} AS BLOB)), 4)`).join(" + ");
  const sizes = await all(
    db
      .prepare(
        `WITH edgemcp_page(${list.join(", ")}) AS (${wrapped} LIMIT ?1 OFFSET ?2) SELECT ${size} AS bytes FROM edgemcp_page`,
      )
      .bind(pageSize + 1, offset),
  );
  let bytes = 0;
  let fit = 0;
  for (const { bytes: value } of sizes.slice(0, pageSize)) {
    const rowBytes = Number(value);
    if (bytes + rowBytes > QUERY_BOUNDS.maxPageBytes) {
      if (fit === 0)
        throw new SqlRefusal(
          `Row ${offset + 1} holds about ${number(rowBytes)} bytes, more than one page carries ` +
            `(${number(QUERY_BOUNDS.maxPageBytes)}); select fewer or shorter columns, e.g. substr(column, 1, 1000).`,
        );
      return { fit, more: true };
    }
    bytes += rowBytes;
    fit++;
  }
  return { fit, more: sizes.length > pageSize };
}

/** What the cost bound reads from a statement's text, with no database round trip. */
type TextFacts = { shape: string; view: string; pragmaCalls: number; bytesPerRow: number };

/**
 * The cost checks that need only the text: table-valued functions over generated input, and
 * value generators whose size is not a literal. Throws their refusal.
 */
function checkText(statement: ReadStatement): TextFacts {
  const shape = skeleton(statement.sql);
  const view = namesView(statement.sql, shape);
  const pragmaCalls = checkTableFunctions(view);
  const bytesPerRow = generatedBytesPerRow(statement.sql, view);
  return { shape, view, pragmaCalls, bytesPerRow };
}

/**
 * Refuses a statement whose plan could visit more than `QUERY_BOUNDS.maxRowVisits` rows, or
 * with a recursive CTE that does not stop within `QUERY_BOUNDS.maxRecursiveRows` rows.
 */
async function checkCost(
  db: Queryable,
  statement: ReadStatement,
  { shape, view, pragmaCalls, bytesPerRow }: TextFacts,
): Promise<void> {
  const tableRows = await tableSizes(db);
  const aliases = tableAliases(shape, tableRows.keys());
  const measured = new Map<string, number>();
  const estimate = async (sql: string) => {
    const plan = await db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all<PlanRow>();
    return estimatePlan(plan.results, {
      tableRows,
      aliases,
      recursiveRows: measured,
      assumedRecursiveRows: QUERY_BOUNDS.maxRecursiveRows,
    });
  };
  const tooCostly = (rows: number, worst: string) =>
    new SqlRefusal(
      `The query is too costly to run: its plan visits about ${number(rows)} rows ` +
        `(${worst || "nested scans"}), more than the ${number(QUERY_BOUNDS.maxRowVisits)} allowed. ` +
        "Join on indexed columns (see the table schemas), filter with WHERE, or aggregate in smaller steps.",
    );
  // Each estimate is checked before anything it covers runs: rows, made bytes, function loops.
  const check = (cost: PlanEstimate, bytesPerRow: number) => {
    if (cost.rows > QUERY_BOUNDS.maxRowVisits) throw tooCostly(cost.rows, cost.worst);
    const made = bytesPerRow * Math.max(1, cost.rows);
    if (made > QUERY_BOUNDS.maxGeneratedBytes)
      throw new SqlRefusal(
        `The query makes too many bytes: about ${number(bytesPerRow)} per row (replace, hex, printf, zeroblob, group_concat and the like) ` +
          `over about ${number(cost.rows)} rows, more than the ${number(QUERY_BOUNDS.maxGeneratedBytes)} allowed. ` +
          "Make smaller values, or fewer rows.",
      );
  };
  const first = await estimate(statement.sql);
  checkVirtualLoops(first.functionLoops, pragmaCalls);
  const { recursive } = first;
  // Without a recursive CTE nothing is to be measured: the first estimate is the statement's cost.
  if (recursive.length === 0) check(first, bytesPerRow);
  // A recursive CTE is measured on its own, up to one row past the bound, before the whole
  // statement is estimated with its real size; the measuring itself is bounded first.
  const ctes = recursive.length > 0 ? (topLevelCtes(statement.sql, shape) ?? []) : [];
  for (const name of recursive) {
    const cte = ctes.find((c) => c.key === name);
    if (!cte)
      throw new SqlRefusal(
        `The recursive CTE ${name} must be declared in the statement's first WITH clause, so its size can be checked.`,
      );
    const probe = `${statement.sql.slice(0, cte.end)}\nSELECT count(*) AS n FROM (SELECT 1 FROM ${quoteIdentifier(cte.name)} LIMIT ${QUERY_BOUNDS.maxRecursiveRows + 1})`;
    let produced: number;
    try {
      const head = [statement.sql.slice(0, cte.end), view.slice(0, cte.end)] as const;
      const headBytes = generatedBytesPerRow(...head);
      // A value carried from one step to the next may grow each time (doubled by a replace,
      // lengthened by ||), quadratically or exponentially in the steps, which no plan shows.
      if (headBytes > 0 || /\|\||\bconcat(?:_ws)?\s*\(/i.test(head[1]))
        throw new SqlRefusal(
          `The recursive CTE ${cte.name} makes strings (||, replace, hex, printf and the like): a value carried ` +
            "from step to step can grow each time, which the cost bound cannot know. Recurse over numbers " +
            "and build strings in the outer SELECT.",
        );
      check(await estimate(probe), headBytes);
      const [row] = (await db.prepare(probe).all<{ n: number }>()).results;
      produced = Number(row?.n ?? 0);
    } catch (error) {
      if (error instanceof SqlRefusal) throw error;
      throw d1Refusal(`The recursive CTE ${cte.name} could not be checked on its own`, error);
    }
    if (produced > QUERY_BOUNDS.maxRecursiveRows)
      throw new SqlRefusal(
        `The recursive CTE ${cte.name} produces more than ${number(QUERY_BOUNDS.maxRecursiveRows)} rows (or never stops). ` +
          "Bound its recursive step, e.g. WHERE i < 1000, or give it a LIMIT.",
      );
    measured.set(name, produced);
  }
  if (recursive.length > 0) check(await estimate(statement.sql), bytesPerRow);
}

const SIZES_TTL_MS = 60_000;
const sizesCache = new WeakMap<Queryable, { at: number; sizes: Map<string, number> }>();

/** Rows per user table, by lower-cased name, read at most once a minute per database binding. */
async function tableSizes(db: Queryable): Promise<Map<string, number>> {
  const cached = sizesCache.get(databaseOf(db));
  if (cached && Date.now() - cached.at < SIZES_TTL_MS) return cached.sizes;
  const tables = await listTables(db);
  const sizes = new Map<string, number>();
  if (tables.length > 0) {
    const counts = tables.map((t) => `(SELECT count(*) FROM ${quoteIdentifier(t)})`).join(", ");
    const [row] = await db.prepare(`SELECT ${counts}`).raw<number[]>();
    tables.forEach((table, i) => sizes.set(table.toLowerCase(), Number(row?.[i] ?? 0)));
  }
  sizesCache.set(databaseOf(db), { at: Date.now(), sizes });
  return sizes;
}

/** Runs a statement for its rows, column names first; an engine error becomes a refusal. */
async function run(prepared: D1PreparedStatement): Promise<unknown[][]> {
  try {
    return await prepared.raw<unknown[]>({ columnNames: true });
  } catch (error) {
    throw d1Refusal("The query failed", error);
  }
}

/** Runs a statement for its rows as objects; an engine error becomes a refusal. */
async function all(prepared: D1PreparedStatement): Promise<Record<string, unknown>[]> {
  try {
    return (await prepared.all<Record<string, unknown>>()).results;
  } catch (error) {
    throw d1Refusal("The query failed", error);
  }
}

const names = (columns: unknown[] | undefined): string[] => (columns ?? []).map(String);

const objects = (columns: string[], raw: unknown[][]): Record<string, unknown>[] =>
  raw.map((values) => Object.fromEntries(columns.map((name, i) => [name, values[i]])));
