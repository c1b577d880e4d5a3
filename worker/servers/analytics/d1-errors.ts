import { SqlRefusal } from "./sql-guard.ts";
import { errorText } from "../../../shared/error-text.ts";

// What SQLite says about the statement itself: the same text on the same schema fails the same
// way every time, so the refusal may be remembered and its words shown to the caller. D1's own
// failures (overloaded, reset, connection lost, SQLITE_BUSY or IOERR) carry none of these.
const STATEMENT_ERROR =
  /syntax error|no such (table|column|function|collation)|near "|unrecognized token|incomplete input|ambiguous column|misuse of|wrong number of arguments|more than \d+ result columns|too many (terms|columns|arguments|FROM-clause)|string or blob too big|Expression tree is too large|circular reference|parse error|not authorized|integer overflow|malformed JSON|bad JSON path|datatype mismatch|SQLITE_(ERROR|AUTH|TOOBIG|RANGE|MISMATCH|CONSTRAINT)\b/i;

/** Whether `error` is SQLite's verdict on the statement, rather than D1 failing to answer. */
export function isStatementError(error: unknown): boolean {
  return STATEMENT_ERROR.test(errorText(error));
}

/**
 * The refusal a D1 failure gives: SQLite's own words after `what` when it judged the statement
 * (deterministic, so remembered), or, when D1 failed to answer (overloaded, reset, connection
 * lost), a passing failure that says to retry and shows nothing of D1's message.
 */
export function d1Refusal(what: string, error: unknown): SqlRefusal {
  if (isStatementError(error)) return new SqlRefusal(`${what}: ${errorText(error)}`);
  return new SqlRefusal(
    "The database did not answer this time (a passing failure, not a problem with the query). Try again shortly.",
    { deterministic: false },
  );
}
