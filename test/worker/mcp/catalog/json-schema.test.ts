import { describe, expect, it } from "vitest";
import * as z from "zod";
import * as zm from "zod/mini";
import { defineServer, tool } from "../../../../worker/mcp/index.ts";
import { legacyRequest, mcpRequest } from "../../../support/mcp-request.ts";
import { serve } from "../../custom-server.ts";

const server = defineServer({
  name: "schemas",
  version: "1.0.0",
  tools: [
    tool({
      name: "typed",
      description: "Integers and dates",
      input: z.object({
        count: z.int(),
        positive: z.int().positive(),
        bounded: z.int().min(1).max(10),
        small: z.int32(),
        mini: zm.int(),
        at: z.iso.datetime(),
        day: z.iso.date(),
        mail: z.email(),
        work_mail: z.email().regex(/@example\.com$/),
        code: z.string().regex(/^[A-Z]{3}$/),
      }),
      output: z.object({ at: z.iso.datetime({ offset: true }), n: z.int() }),
      run: ({ count }) => ({ at: "2026-01-01T00:00:00+01:00", n: count }),
    }),
  ],
});

describe("JSON Schemas derived from zod are compact", () => {
  const { wire } = server.catalog.tools.get("typed")!;
  const properties = wire.inputSchema.properties as Record<string, Record<string, unknown>>;

  it("says integer without the ±(2^53 - 1) bounds, keeping bounds the author set", () => {
    expect(properties.count).toEqual({ type: "integer" });
    expect(properties.mini).toEqual({ type: "integer" });
    expect(properties.positive).toEqual({ type: "integer", exclusiveMinimum: 0 });
    expect(properties.bounded).toEqual({ type: "integer", minimum: 1, maximum: 10 });
    expect(properties.small).toEqual({
      type: "integer",
      minimum: -2147483648,
      maximum: 2147483647,
    });
  });

  it("says a standard format without the regular expression behind it", () => {
    expect(properties.at).toEqual({ type: "string", format: "date-time" });
    expect(properties.day).toEqual({ type: "string", format: "date" });
    expect(properties.mail).toEqual({ type: "string", format: "email" });
    expect(wire.outputSchema?.properties).toEqual({
      at: { type: "string", format: "date-time" },
      n: { type: "integer" },
    });
  });

  it("keeps the patterns an author wrote", () => {
    expect(properties.code).toEqual({ type: "string", pattern: "^[A-Z]{3}$" });
    expect(JSON.stringify(properties.work_mail)).toContain("example");
  });

  it("lists the compact form, valid on the wire in both eras, and still validates arguments", async () => {
    const served = serve(server);
    const modern = await served.send(mcpRequest("tools/list", {}, { server: "t" }), "tools/list");
    const legacy = await served.send(
      legacyRequest("tools/list", {}, { server: "t" }),
      "tools/list",
      "2025",
    );
    for (const { final } of [modern, legacy]) {
      const text = JSON.stringify(final?.result);
      expect(text).not.toContain("9007199254740991");
      expect(text).not.toContain("\\\\d");
    }
    const args = {
      count: 1.5,
      positive: 1,
      bounded: 1,
      small: 1,
      mini: 1,
      at: "yesterday",
      day: "2026-01-01",
      mail: "a@b.co",
      work_mail: "a@example.com",
      code: "ABC",
    };
    const { final } = await served.send(
      mcpRequest("tools/call", { name: "typed", arguments: args }, { server: "t" }),
      "tools/call",
    );
    expect(final?.result?.isError).toBe(true);
    expect(final?.result?.content[0].text).toMatch(/arguments\.count: .*arguments\.at: /);
  });
});
