import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { mcpRequest } from "../../support/mcp-request.ts";
import { call } from "../call.ts";
import { reads, refusals } from "./sql-corpus.ts";

const query = (args: Record<string, unknown>) =>
  call("tools/call", { name: "execute_query", arguments: args }, { server: "analytics" });

/** A digest of every table's rows, to show that nothing changed. */
async function snapshot(): Promise<string> {
  const tables = ["users", "orders", "incidents", "error_logs"];
  const rows = await Promise.all(
    tables.map((t) =>
      env.ANALYTICS_DB.prepare(`SELECT count(*) AS n, total(id) AS s FROM ${t}`).first(),
    ),
  );
  const schema = await env.ANALYTICS_DB.prepare(
    "SELECT group_concat(name || ':' || coalesce(sql, ''), '|') AS s FROM (SELECT * FROM sqlite_master ORDER BY name)",
  ).first<{ s: string }>();
  return JSON.stringify({ rows, schema: schema?.s });
}

describe("the read-only corpus: ordinary reads run", () => {
  it.each(reads.map((r) => [r.what, r] as const))("runs %s", async (_what, read) => {
    const { final } = await query({ sql: read.sql, page_size: 500 });
    expect(final?.result.content[0].text).not.toMatch(/refused|not allowed|too costly/);
    expect(final?.result.isError).toBeUndefined();
    expect(final?.result.structuredContent.rows).toHaveLength(read.rows);
    if (read.first) expect(final?.result.structuredContent.rows[0]).toMatchObject(read.first);
  });
});

describe("the read-only corpus: writes, escapes and unbounded work are refused", () => {
  it.each(refusals.map((r) => [r.what, r] as const))(
    "refuses %s with a tool error that says why",
    async (_what, refusal) => {
      const before = await snapshot();
      const { final } = await query({ sql: refusal.sql });
      expect(final?.result.isError).toBe(true);
      expect(final?.result.content[0].text).toMatch(refusal.says);
      expect(await snapshot()).toBe(before);
    },
  );
});

describe("syntax errors", () => {
  it.each([
    ["a misspelt first keyword", "SELEC * FROM users", /Syntax error near "SELEC"/],
    ["a misspelt keyword later on", "SELECT * FORM users", /does not compile.*syntax error/],
    ["an unknown column", "SELECT nope FROM users", /does not compile.*no such column: nope/],
  ])("reports %s as a syntax error, not as a write", async (_what, sql, says) => {
    const { final } = await query({ sql });
    expect(final?.result.isError).toBe(true);
    expect(final?.result.content[0].text).toMatch(says);
    expect(final?.result.content[0].text).not.toMatch(/read-only|could change/);
  });
});

describe("bounded answers", () => {
  it("cuts a page by bytes as well as rows, and the cursor goes on from the last row sent", async () => {
    const sql = "SELECT id, hex(zeroblob(50000)) AS pad FROM users ORDER BY id";
    const first = await query({ sql, page_size: 10 });
    const page = first.final?.result.structuredContent;
    expect(page.rows.map((r: { id: number }) => r.id)).toEqual([1, 2]);
    expect(page.next).toEqual(expect.any(String));
    const second = await query({ cursor: page.next });
    expect(second.final?.result.structuredContent).toMatchObject({ offset: 2 });
    expect(second.final?.result.structuredContent.rows[0].id).toBe(3);
  });

  it("frees the database for the next caller when a heavy query's request is aborted", async () => {
    const controller = new AbortController();
    const heavy = new Request(
      mcpRequest(
        "tools/call",
        {
          name: "execute_query",
          arguments: {
            sql: "SELECT count(*) FROM error_logs a, error_logs b, error_logs c, users",
          },
        },
        { server: "analytics" },
      ),
      { signal: controller.signal },
    );
    const pending = exports.default.fetch(heavy).then(
      (response) => response.text(),
      (error: unknown) => String(error),
    );
    await scheduler.wait(5);
    controller.abort();
    await pending;
    // Without the cost bound the statement above holds D1 for hours and this never answers.
    const { final } = await query({ sql: "SELECT count(*) AS n FROM users" });
    expect(final?.result.structuredContent.rows).toEqual([{ n: 200 }]);
  });
});
