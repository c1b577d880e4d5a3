import { d1Refusal } from "./d1-errors.ts";
import { SqlRefusal } from "./sql-guard.ts";

// Opcodes of SQLite's virtual machine that write to the database file, its schema or its
// settings; a read-only program never contains them. Insert, Delete, IdxInsert and IdxDelete
// are not here: DISTINCT, IN (subquery), sorting and recursive CTEs use them on ephemeral
// tables, and a program can only reach a real table through OpenWrite, which is.
const WRITE_OPCODES = new Set([
  "OpenWrite",
  "Destroy",
  "Clear",
  "CreateBtree",
  "ParseSchema",
  "DropTable",
  "DropIndex",
  "DropTrigger",
  "SqlExec",
  "VUpdate",
  "VDestroy",
  "VCreate",
  "Vacuum",
  "IncrVacuum",
  "JournalMode",
  "Checkpoint",
  "LoadAnalysis",
  "Expire",
  "SetCookie",
]);

type Op = { opcode: string; p2: number };

/**
 * Second layer, independent of how the text looks: SQLite compiles the statement (EXPLAIN
 * runs nothing) and the program is refused if it opens a write transaction or any write
 * opcode appears. `statement` is the one that would run: for an EXPLAIN, the one it explains
 * (`ReadStatement.program`).
 */
export async function checkProgramIsReadOnly(
  db: Pick<D1Database, "prepare">,
  statement: string,
): Promise<void> {
  let program: Op[];
  try {
    program = (await db.prepare(`EXPLAIN ${statement}`).all<Op>()).results;
  } catch (error) {
    throw d1Refusal("The query does not compile", error);
  }
  for (const op of program) {
    if (WRITE_OPCODES.has(op.opcode) || (op.opcode === "Transaction" && op.p2 !== 0)) {
      throw new SqlRefusal(
        `The query would write to the database (${op.opcode}); only reads are allowed.`,
      );
    }
  }
}
