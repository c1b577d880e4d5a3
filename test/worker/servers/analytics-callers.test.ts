import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CALLER_BOUNDS, CallerGate } from "../../../worker/servers/analytics/callers.ts";
import { analytics } from "../../../worker/servers/analytics/index.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";
import { meteredD1 } from "./d1-meter.ts";

/** The analytics server on a metered D1, with `vars` added to its bindings. */
function meteredServer(vars: Record<string, string> = {}) {
  const db = meteredD1(env.ANALYTICS_DB);
  const server = serve(analytics, {}, { ANALYTICS_DB: db.binding, ...vars });
  const query = async (sql: string, address = "198.51.100.20") => {
    const request = mcpRequest(
      "tools/call",
      { name: "execute_query", arguments: { sql } },
      { server: "analytics", headers: { "CF-Connecting-IP": address } },
    );
    const { final } = await server.send(request, "tools/call");
    return {
      isError: final?.result.isError === true,
      text: String(final?.result.content[0].text),
      rows: final?.result.structuredContent?.rows as unknown[] | undefined,
    };
  };
  return { db, query };
}

describe("what the text shows is refused before the database is asked", () => {
  it.each([
    [
      "a table-valued function over a generated string",
      "SELECT count(*) FROM json_each('[' || replace(hex(zeroblob(150000)), '00', '0,') || '0]') a, users b",
      /json_each is not allowed/,
    ],
    [
      "a blob whose size comes from a column",
      "SELECT count(*) FROM error_logs a WHERE length(hex(zeroblob(1000000 + a.id))) > 0",
      /zeroblob\(\) takes a whole-number literal/,
    ],
    [
      "a printf width taken from an argument",
      "SELECT printf('%*d', id, 1) FROM users",
      /widths must be written in its pattern/,
    ],
  ])("refuses %s without a statement reaching D1", async (_what, sql, says) => {
    const { db, query } = meteredServer();
    const answer = await query(sql);
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(says);
    expect(db.statements).toEqual([]);
  });

  it("still runs EXPLAIN of such a statement, which runs nothing", async () => {
    const { query } = meteredServer();
    const answer = await query("EXPLAIN QUERY PLAN SELECT * FROM json_each('[1,2]')");
    expect(answer.isError).toBe(false);
    expect(answer.rows?.length).toBeGreaterThan(0);
  });
});

// Passes the guard and keeps D1 busy for a measurable time (a string made and rewritten per row).
const BUSY =
  "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000) " +
  "SELECT count(*) AS n FROM c WHERE length(replace(hex(zeroblob(100)) || c.i, '0', '00')) > 0";
const CHEAP = "SELECT count(*) AS n FROM users";
// Refused by its plan's cost, which takes round trips to D1 to find.
const COSTLY = "SELECT max(length(randomblob(100000) || a.id)) FROM error_logs a";

describe("each caller's share of the database", () => {
  it("answers a refused statement again from memory, without a round trip to D1", async () => {
    const { db, query } = meteredServer();
    const first = await query(COSTLY, "198.51.100.21");
    expect(first.text).toMatch(/too many bytes/);
    expect(db.statements.length).toBeGreaterThan(0);
    db.statements.length = 0;
    const again = await query(` ${COSTLY} ; `, "198.51.100.21");
    expect(again).toEqual(first);
    expect(db.statements).toEqual([]);
    // Remembered for that caller only: another one's first try is checked in the database.
    const other = await query(COSTLY, "198.51.100.22");
    expect(other.text).toBe(first.text);
    expect(db.statements.length).toBeGreaterThan(0);
  });

  it("remembers a statement that does not compile, as it fails the same way again", async () => {
    const { db, query } = meteredServer();
    const first = await query("SELECT nope FROM users", "198.51.100.27");
    expect(first).toMatchObject({
      isError: true,
      text: expect.stringMatching(/does not compile.*no such column: nope/),
    });
    db.statements.length = 0;
    expect(await query("SELECT nope FROM users", "198.51.100.27")).toEqual(first);
    expect(db.statements).toEqual([]);
  });

  it.each([
    ["compiling it", /^EXPLAIN WITH/, "D1_ERROR: Network connection lost."],
    [
      "reading its page",
      /LIMIT \?1 OFFSET \?2$/,
      "D1_ERROR: Internal error in D1 DB storage caused object to be reset.",
    ],
    [
      "measuring its recursive CTE",
      /^WITH RECURSIVE c\(i\) AS .*SELECT count\(\*\) AS n FROM \(SELECT 1/s,
      "D1 DB is overloaded. Too many requests queued.",
    ],
  ])(
    "does not remember a passing D1 failure while %s, and shows none of its words",
    async (_when, match, message) => {
      const { db, query } = meteredServer();
      const sql =
        "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 10) SELECT count(*) AS n FROM c";
      db.fail(match, new Error(message));
      const failed = await query(sql, "198.51.100.28");
      expect(failed.isError).toBe(true);
      expect(failed.text).toBe(
        "The database did not answer this time (a passing failure, not a problem with the query). Try again shortly.",
      );
      db.statements.length = 0;
      expect(await query(sql, "198.51.100.28")).toMatchObject({
        isError: false,
        rows: [{ n: 10 }],
      });
      expect(db.statements.length).toBeGreaterThan(0);
    },
  );

  it("refuses a caller's second query while its first is running, and lets others through", async () => {
    const { db, query } = meteredServer();
    const held = db.hold(/LIMIT \?1 OFFSET \?2$/);
    const first = query(CHEAP, "198.51.100.23");
    const release = await held;
    const second = await query(CHEAP, "198.51.100.23");
    expect(second.isError).toBe(true);
    expect(second.text).toBe(
      "Another query from this caller is still running; wait for its answer before sending the next.",
    );
    expect(await query(CHEAP, "198.51.100.24")).toMatchObject({
      isError: false,
      rows: [{ n: 200 }],
    });
    release();
    expect(await first).toMatchObject({ isError: false, rows: [{ n: 200 }] });
    expect(await query(CHEAP, "198.51.100.23")).toMatchObject({ isError: false });
  });

  it("declares its database time a minute in wrangler.toml's [vars], as the default it applies", () => {
    expect(env.ANALYTICS_DB_MS_PER_MINUTE).toBe(String(CALLER_BOUNDS.dbMsPerMinute));
  });

  it("counts the database time D1 reports, and past the budget answers with when to retry", async () => {
    const { query } = meteredServer({ ANALYTICS_DB_MS_PER_MINUTE: "1" });
    expect(await query(BUSY, "198.51.100.25")).toMatchObject({
      isError: false,
      rows: [{ n: 20000 }],
    });
    const refused = await query(CHEAP, "198.51.100.25");
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(
      /^Too much database time from this caller: at most 0\.001 s a minute\. Retry after \d+ s\.$/,
    );
    expect(await query(CHEAP, "198.51.100.26")).toMatchObject({
      isError: false,
      rows: [{ n: 200 }],
    });
  });
});

describe("the caller gate's memory", () => {
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it("gives a spent budget back at its rate, and says how long that takes", () => {
    const time = clock();
    const gate = new CallerGate(time.now);
    const admission = gate.admit("a", CHEAP, 6_000);
    admission.charge(9_000); // 3 s past a budget refilled at 100 ms a second
    admission.end();
    expect(() => gate.admit("a", CHEAP, 6_000)).toThrow(/Retry after 31 s\./);
    time.advance(30_000);
    expect(() => gate.admit("a", CHEAP, 6_000)).toThrow(/Retry after 1 s\./);
    time.advance(1_000);
    gate.admit("a", CHEAP, 6_000).end();
  });

  it("forgets a refusal after a minute, and the oldest past a thousand", () => {
    const time = clock();
    const gate = new CallerGate(time.now);
    gate.remember("a", "SELECT 1", "refused");
    expect(() => gate.admit("a", "SELECT 1", 0)).toThrow("refused");
    time.advance(CALLER_BOUNDS.refusalTtlMs);
    gate.admit("a", "SELECT 1", 0).end();
    gate.remember("a", "SELECT 0", "refused");
    for (let i = 1; i <= CALLER_BOUNDS.refusalsRemembered; i++)
      gate.remember("a", `SELECT ${i}`, "refused");
    gate.admit("a", "SELECT 0", 0).end();
    expect(() => gate.admit("a", "SELECT 1", 0)).toThrow("refused");
  });

  it("keeps a caller in debt while forgetting full budgets of many others", () => {
    const gate = new CallerGate(clock().now);
    const debtor = gate.admit("debtor", CHEAP, 1_000);
    debtor.charge(60_000);
    debtor.end();
    for (let i = 0; i < CALLER_BOUNDS.callersTracked + 10; i++)
      gate.admit(`caller-${i}`, CHEAP, 1_000).end();
    expect(() => gate.admit("debtor", CHEAP, 1_000)).toThrow(/Too much database time/);
  });
});
