import { describe, expect, it } from "vitest";
import { defineServer, tool } from "../../../../worker/mcp/index.ts";
import type { JsonObject } from "../../../../shared/protocol/messages.ts";

const catalogOf = (inputSchema: JsonObject) =>
  defineServer({
    name: "declarations",
    version: "1",
    tools: [tool({ name: "t", inputSchema, run: () => "" })],
  }).catalog;

describe("x-mcp-header declarations in a tool's input schema", () => {
  it("ignores an x-mcp-header key inside default and examples data", () => {
    const catalog = catalogOf({
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        options: {
          type: "object",
          default: { "x-mcp-header": "NotAHeader" },
          examples: [{ "x-mcp-header": "NotAHeaderEither" }],
        },
      },
    });
    expect(catalog.tools.get("t")?.headerParams).toEqual([
      { header: "Region", path: ["region"], type: "string" },
    ]);
  });

  it("ignores an x-mcp-header key inside const and enum data", () => {
    const catalog = catalogOf({
      type: "object",
      properties: {
        mode: { type: "object", const: { "x-mcp-header": "Mode" } },
        kind: { type: "object", enum: [{ "x-mcp-header": "Kind" }] },
      },
    });
    expect(catalog.tools.get("t")?.headerParams).toEqual([]);
  });

  it("still rejects an x-mcp-header on a subschema outside plain properties", () => {
    expect(
      () =>
        catalogOf({
          type: "object",
          properties: { a: { anyOf: [{ type: "string", "x-mcp-header": "A" }] } },
        }).tools,
    ).toThrow('tool "t": invalid x-mcp-header: "a" is not reachable through "properties" alone.');
  });

  it("rejects an x-mcp-header on the root schema", () => {
    expect(
      () => catalogOf({ type: "object", "x-mcp-header": "Root", properties: {} }).tools,
    ).toThrow('tool "t": invalid x-mcp-header: "(root)" is not reachable');
  });
});
