import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../call.ts";

const query = (args: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call("tools/call", { name: "execute_query", arguments: args }, { server: "analytics", headers });

describe("execute_query refuses anything that could write", () => {
  it.each([
    [
      "INSERT",
      "INSERT INTO users (id, email, name, plan, country, created_at) VALUES (999, 'x', 'x', 'free', 'DE', 'now')",
      /starts with INSERT/,
    ],
    ["UPDATE", "UPDATE users SET plan = 'pro'", /starts with UPDATE/],
    ["DELETE", "delete from orders", /starts with DELETE/],
    ["DDL", "DROP TABLE users", /starts with DROP/],
    ["CREATE", "CREATE TABLE t (x)", /starts with CREATE/],
    ["PRAGMA", "PRAGMA writable_schema = 1", /starts with PRAGMA/],
    ["ATTACH", "ATTACH DATABASE 'x' AS y", /starts with ATTACH/],
    [
      "a write hidden in a CTE",
      "WITH x AS (SELECT 1) INSERT INTO users SELECT * FROM users",
      /contains INSERT/,
    ],
    ["a second statement", "SELECT 1; DELETE FROM users", /one statement/],
    [
      "REPLACE INTO",
      "WITH a AS (SELECT 1) REPLACE INTO users SELECT * FROM users",
      /contains REPLACE/,
    ],
    ["an unterminated string", "SELECT 'abc", /unterminated/],
    ["an empty query", "  ;  ", /empty/],
  ])("refuses %s with a tool error that explains why", async (_what, sql, message) => {
    const { final } = await query({ sql });
    expect(final?.result.isError).toBe(true);
    expect(final?.result.content[0].text).toMatch(message);
  });

  it("leaves the data untouched after refusals", async () => {
    await query({ sql: "WITH x AS (SELECT 1) DELETE FROM users" });
    const row = await env.ANALYTICS_DB.prepare("SELECT count(*) AS n FROM users").first<{
      n: number;
    }>();
    expect(row?.n).toBe(200);
  });

  it("does not mistake keywords inside strings, comments or names for writes", async () => {
    const { final } = await query({
      sql: "SELECT 'DELETE FROM users' AS note, replace(name, 'a', 'b') AS r /* UPDATE */ FROM users WHERE id = 1 -- DROP",
    });
    expect(final?.result.isError).toBeUndefined();
    expect(final?.result.structuredContent.rows[0].note).toBe("DELETE FROM users");
  });

  it("judges a statement by its first keyword after comments", async () => {
    const { final } = await query({ sql: "/* tidy up */ -- really\nDELETE FROM users" });
    expect(final?.result.isError).toBe(true);
    expect(final?.result.content[0].text).toMatch(/this one starts with DELETE/);
  });

  it("reports SQL errors from the engine as tool errors", async () => {
    const { final } = await query({ sql: "SELECT * FROM no_such_table" });
    expect(final?.result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/does not compile.*no_such_table/) }],
    });
  });

  it("needs exactly one of sql and cursor", async () => {
    const { final } = await query({});
    expect(final?.result.isError).toBe(true);
    expect(final?.result.content[0].text).toMatch(/either `sql`/);
    const both = await query({ sql: "SELECT 1", cursor: "x" });
    expect(both.final?.result).toMatchObject({
      isError: true,
      content: [
        {
          type: "text",
          text: "Pass either `sql` (a new query) or `cursor` (the next page of one), not both or neither.",
        },
      ],
    });
  });
});

describe("execute_query reads and pages through sealed cursors", () => {
  it("returns rows as structured content and as JSON text", async () => {
    const { final } = await query({ sql: "SELECT id, email FROM users ORDER BY id LIMIT 3" });
    expect(final?.result.structuredContent).toEqual({
      columns: ["id", "email"],
      rows: [
        { id: 1, email: "user1@example.com" },
        { id: 2, email: "user2@example.com" },
        { id: 3, email: "user3@example.com" },
      ],
      row_count: 3,
      offset: 0,
    });
    expect(JSON.parse(final?.result.content[0].text)).toEqual(final?.result.structuredContent);
  });

  it("walks a few thousand rows page by page, each row once", async () => {
    const ids: number[] = [];
    let next: string | undefined;
    let first = true;
    do {
      const { final } = await query(
        first
          ? { sql: "SELECT id FROM error_logs ORDER BY id", page_size: 500 }
          : { cursor: next, page_size: 500 },
      );
      first = false;
      ids.push(...(final?.result.structuredContent.rows ?? []).map((r: { id: number }) => r.id));
      next = final?.result.structuredContent.next;
    } while (next);
    expect(ids).toHaveLength(4000);
    expect(new Set(ids).size).toBe(4000);
    expect(ids[3999]).toBe(4000);
  });

  it("keeps cursors small", async () => {
    const { final } = await query({ sql: "SELECT id FROM orders ORDER BY id", page_size: 10 });
    expect(final?.result.structuredContent.next.length).toBeLessThan(300);
  });

  it("refuses a tampered cursor", async () => {
    const { final } = await query({ sql: "SELECT id FROM orders ORDER BY id", page_size: 10 });
    const cursor: string = final?.result.structuredContent.next;
    const tampered = cursor.slice(0, 20) + (cursor[20] === "A" ? "B" : "A") + cursor.slice(21);
    const { final: again } = await query({ cursor: tampered });
    expect(again?.result).toMatchObject({
      isError: true,
      content: [
        { text: expect.stringMatching(/query cursor handle is not valid.*Run the query again/) },
      ],
    });
  });

  it("refuses another caller's cursor", async () => {
    const { final } = await query(
      { sql: "SELECT id FROM orders ORDER BY id", page_size: 10 },
      { Authorization: "Bearer token-alice" },
    );
    const { final: bob } = await query(
      { cursor: final?.result.structuredContent.next },
      { Authorization: "Bearer token-bob" },
    );
    expect(bob?.result.content[0].text).toMatch(/belongs to another caller/);
    const { final: anonymous } = await query({ cursor: final?.result.structuredContent.next });
    expect(anonymous?.result.content[0].text).toMatch(/belongs to another caller/);
    const { final: alice } = await query(
      { cursor: final?.result.structuredContent.next },
      { Authorization: "Bearer token-alice" },
    );
    expect(alice?.result.structuredContent.offset).toBe(10);
  });

  it("answers an unknown bearer token with 401", async () => {
    const reply = await query({ sql: "SELECT 1" }, { Authorization: "Bearer nope" });
    expect(reply.status).toBe(401);
    expect(reply.headers.get("WWW-Authenticate")).toMatch(/invalid_token/);
  });

  it("runs EXPLAIN QUERY PLAN", async () => {
    const { final } = await query({
      sql: "EXPLAIN QUERY PLAN SELECT * FROM error_logs WHERE service = 'api'",
    });
    expect(JSON.stringify(final?.result.structuredContent.rows)).toMatch(/error_logs_service_ts/);
  });

  it("pages a query that starts with a comment", async () => {
    const { final } = await query({
      sql: "-- the first errors\nSELECT id FROM error_logs ORDER BY id",
      page_size: 10,
    });
    expect(final?.result.isError).toBeUndefined();
    expect(final?.result.structuredContent.rows.map((r: { id: number }) => r.id)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect(final?.result.structuredContent.next).toEqual(expect.any(String));
  });

  it("runs EXPLAIN after comments, also between its keywords", async () => {
    const explain = await query({ sql: "/* program */ EXPLAIN SELECT 1" });
    expect(explain.final?.result.isError).toBeUndefined();
    expect(explain.final?.result.structuredContent.columns).toContain("opcode");
    const plan = await query({
      sql: "-- plan\nEXPLAIN /* of */ QUERY -- the\nPLAN SELECT * FROM error_logs WHERE service = 'api'",
    });
    expect(plan.final?.result.isError).toBeUndefined();
    expect(JSON.stringify(plan.final?.result.structuredContent.rows)).toMatch(
      /error_logs_service_ts/,
    );
  });
});

describe("analysis handles", () => {
  const tool = (
    name: string,
    args: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) => call("tools/call", { name, arguments: args }, { server: "analytics", headers });

  it("pins a window and filters that later calls reuse", async () => {
    const opened = await tool("open_analysis", {
      from: "2026-10-01T00:00:00Z",
      to: "2026-10-15T00:00:00Z",
      services: ["payments"],
      min_level: "error",
    });
    const handle = opened.final?.result.structuredContent.analysis;
    const summary = await tool("analysis_summary", { analysis: handle });
    const expected = await env.ANALYTICS_DB.prepare(
      "SELECT count(*) AS n FROM error_logs WHERE ts >= '2026-10-01T00:00:00Z' AND ts < '2026-10-15T00:00:00Z' AND service = 'payments' AND level IN ('error','critical')",
    ).first<{ n: number }>();
    expect(summary.final?.result.structuredContent.total).toBe(expected?.n);
    expect(Object.keys(summary.final?.result.structuredContent.by_service)).toEqual(["payments"]);
    const top = await tool("analysis_top_errors", { analysis: handle, limit: 3 });
    expect(top.final?.result.structuredContent.errors).toHaveLength(3);
  });

  it("states the handle's lifetime in the tool description", async () => {
    const { final } = await call("tools/list", {}, { server: "analytics" });
    const open = final?.result.tools.find((t: { name: string }) => t.name === "open_analysis");
    expect(open.description).toMatch(/lasts 15 minutes/);
  });

  it("refuses a query cursor passed as an analysis handle", async () => {
    const { final } = await call(
      "tools/call",
      { name: "execute_query", arguments: { sql: "SELECT id FROM orders", page_size: 5 } },
      { server: "analytics" },
    );
    const wrong = await tool("analysis_summary", {
      analysis: final?.result.structuredContent.next,
    });
    expect(wrong.final?.result.isError).toBe(true);
    expect(wrong.final?.result.content[0].text).toMatch(/made for query cursor, not for analysis/);
  });

  it.each([
    ["ends before it starts", "2026-10-15T00:00:00Z", "2026-10-01T00:00:00Z"],
    ["ends when it starts", "2026-10-01T00:00:00Z", "2026-10-01T00:00:00Z"],
  ])("refuses an empty window (one that %s) with a tool error", async (_, from, to) => {
    const { final } = await tool("open_analysis", { from, to });
    expect(final?.result).toMatchObject({
      isError: true,
      content: [
        {
          type: "text",
          text: `The window is empty: from (${from}) must be before to (${to}).`,
        },
      ],
    });
    expect(final?.result.structuredContent).toBeUndefined();
  });
});

describe("open_analysis windows", () => {
  const open = (args: Record<string, unknown>) =>
    call("tools/call", { name: "open_analysis", arguments: args }, { server: "analytics" });

  it("accepts dates without a time, as midnight UTC", async () => {
    const { final } = await open({ from: "2026-10-01", to: "2026-10-15" });
    expect(final?.result.isError).toBeUndefined();
    expect(final?.result.structuredContent.window).toEqual({
      from: "2026-10-01T00:00:00Z",
      to: "2026-10-15T00:00:00Z",
    });
  });

  it("compares a date-time with an offset as the instant it names", async () => {
    const { final } = await open({ from: "2026-10-01T02:00:00+02:00", to: "2026-10-02" });
    expect(final?.result.structuredContent.window.from).toBe("2026-10-01T00:00:00Z");
  });

  it.each(["2026-13-01", "yesterday", "2026-10-01 08:00"])(
    "refuses %s as a tool error naming the field",
    async (from) => {
      const { final } = await open({ from });
      expect(final?.result?.isError ?? final?.error).toBeTruthy();
      expect(JSON.stringify(final)).toMatch(/from/);
    },
  );
});

describe("table resources and the triage prompt", () => {
  it("lists one schema resource per table", async () => {
    const { final } = await call("resources/list", {}, { server: "analytics" });
    expect(final?.result.resources.map((r: { uri: string }) => r.uri)).toEqual([
      "d1://analytics/tables/error_logs/schema",
      "d1://analytics/tables/incidents/schema",
      "d1://analytics/tables/orders/schema",
      "d1://analytics/tables/users/schema",
    ]);
  });

  it("reads a table's DDL as SQL", async () => {
    const { final } = await call(
      "resources/read",
      { uri: "d1://analytics/tables/orders/schema" },
      { server: "analytics" },
    );
    expect(final?.result.contents[0]).toMatchObject({
      mimeType: "text/x-sql",
      text: expect.stringMatching(/CREATE TABLE orders[\s\S]*CREATE INDEX orders_user/),
    });
  });

  it("reads rows with a limit from the query part", async () => {
    const { final } = await call(
      "resources/read",
      { uri: "d1://analytics/tables/incidents/rows?limit=2" },
      { server: "analytics" },
    );
    expect(JSON.parse(final?.result.contents[0].text).map((r: { id: number }) => r.id)).toEqual([
      1, 2,
    ]);
  });

  it.each(["0", "101", "500", "abc", "2.5"])(
    "refuses limit=%s with -32602 instead of clamping it silently",
    async (limit) => {
      const uri = `d1://analytics/tables/incidents/rows?limit=${limit}`;
      const { final } = await call("resources/read", { uri }, { server: "analytics" });
      expect(final?.error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/limit .* must be a whole number from 1 to 100/),
      });
    },
  );

  it("reads 20 rows when the limit is left out", async () => {
    const { final } = await call(
      "resources/read",
      { uri: "d1://analytics/tables/users/rows" },
      { server: "analytics" },
    );
    expect(JSON.parse(final?.result.contents[0].text)).toHaveLength(20);
  });

  it("answers an unknown table with -32602", async () => {
    const { final } = await call(
      "resources/read",
      { uri: "d1://analytics/tables/secrets/schema" },
      { server: "analytics" },
    );
    expect(final?.error.code).toBe(-32602);
  });

  it.each([
    ["d1://analytics/tables/d1_migrations/schema", "a migration table's schema"],
    ["d1://analytics/tables/sqlite_sequence/rows?limit=1", "an internal table's rows"],
  ])("answers %s (%s) with -32602 as for an unknown table", async (uri) => {
    const { final } = await call("resources/read", { uri }, { server: "analytics" });
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining(uri),
    });
  });

  it("completes table names", async () => {
    const { final } = await call(
      "completion/complete",
      {
        ref: { type: "ref/resource", uri: "d1://analytics/tables/{table}/schema" },
        argument: { name: "table", value: "in" },
      },
      { server: "analytics" },
    );
    expect(final?.result.completion.values).toEqual(["incidents"]);
  });

  it("embeds the incident and its latest errors in the triage prompt", async () => {
    const { final } = await call(
      "prompts/get",
      { name: "triage_incident", arguments: { incident_id: "12" } },
      { server: "analytics" },
    );
    const [record, request] = final?.result.messages ?? [];
    expect(JSON.parse(record.content.resource.text)).toMatchObject({
      id: 12,
      title: "Payments double-charged",
    });
    expect(request.content.text).toMatch(/Triage incident 12 \(sev1, open\) on payments/);
    expect(request.content.text.split("\n").filter((l: string) => /^2026-/.test(l))).toHaveLength(
      20,
    );
  });

  it("answers an unknown incident with -32602", async () => {
    const { final } = await call(
      "prompts/get",
      { name: "triage_incident", arguments: { incident_id: "99" } },
      { server: "analytics" },
    );
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Unknown incident "99"/),
    });
  });
});
