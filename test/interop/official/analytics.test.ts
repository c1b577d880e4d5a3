import type { Client } from "@modelcontextprotocol/client";
import type { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectV1, connectV2 } from "../support/clients.ts";

type Page = { rows: { id: number }[]; next?: string };

describe("the analytics server (D1) from the official v2 client", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectV2({ pin: "2026-07-28" }, { server: "analytics" });
  });
  afterAll(() => client.close());

  it("pages a query through sealed cursors", async () => {
    const ids: number[] = [];
    let next: string | undefined;
    let first = true;
    do {
      const args = first
        ? { sql: "SELECT id FROM orders ORDER BY id", page_size: 400 }
        : { cursor: next, page_size: 400 };
      first = false;
      const result = await client.callTool({ name: "execute_query", arguments: args });
      const page = result.structuredContent as Page;
      ids.push(...page.rows.map((r) => r.id));
      next = page.next;
    } while (next);
    expect(ids).toHaveLength(1500);
  });

  it("refuses a write as a tool error", async () => {
    const result = await client.callTool({
      name: "execute_query",
      arguments: { sql: "DELETE FROM orders" },
    });
    expect(result.isError).toBe(true);
  });

  it("opens an analysis and summarizes it through the handle", async () => {
    const opened = await client.callTool({
      name: "open_analysis",
      arguments: { min_level: "critical" },
    });
    const { analysis } = opened.structuredContent as { analysis: string };
    const summary = await client.callTool({ name: "analysis_summary", arguments: { analysis } });
    expect(summary.structuredContent).toMatchObject({ by_level: { critical: expect.any(Number) } });
  });

  it("lists table schemas and reads one", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.name)).toContain("users schema");
    const { contents } = await client.readResource({ uri: "d1://analytics/tables/users/schema" });
    expect(contents[0]).toMatchObject({ mimeType: "text/x-sql" });
  });

  it("completes table names and builds the triage prompt", async () => {
    const { completion } = await client.complete({
      ref: { type: "ref/resource", uri: "d1://analytics/tables/{table}/schema" },
      argument: { name: "table", value: "o" },
    });
    expect(completion.values).toEqual(["orders"]);
    const prompt = await client.getPrompt({
      name: "triage_incident",
      arguments: { incident_id: "9" },
    });
    expect(prompt.messages).toHaveLength(2);
  });
});

describe("the analytics server from a 2025 (legacy) client", () => {
  let client: V1Client;
  beforeAll(async () => {
    ({ client } = await connectV1("analytics"));
  });
  afterAll(() => client.close());

  it("runs a query and follows its cursor", async () => {
    const first = await client.callTool({
      name: "execute_query",
      arguments: { sql: "SELECT id FROM users ORDER BY id", page_size: 150 },
    });
    const page = first.structuredContent as Page;
    expect(page.rows).toHaveLength(150);
    const second = await client.callTool({
      name: "execute_query",
      arguments: { cursor: page.next },
    });
    expect((second.structuredContent as Page).rows.map((r) => r.id)).toEqual(
      Array.from({ length: 50 }, (_, i) => 151 + i),
    );
  });

  it("reads a table's rows resource", async () => {
    const { contents } = await client.readResource({
      uri: "d1://analytics/tables/users/rows?limit=3",
    });
    const text = contents[0] && "text" in contents[0] ? contents[0].text : "";
    expect(JSON.parse(text).map((r: { id: number }) => r.id)).toEqual([1, 2, 3]);
  });
});
