import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
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
