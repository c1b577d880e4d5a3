import { describe, expect, it } from "vitest";
import * as z from "zod";
import * as zm from "zod/mini";
import { DefinitionError, defineServer, tool } from "../../../../worker/mcp/index.ts";
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

describe("a schema only zod's converter can write", () => {
  type Tree = { name: string; children: Tree[] };
  const Tree: z.ZodType<Tree> = z.object({
    name: z.string(),
    // eslint-disable-next-line no-restricted-syntax -- a getter is how zod spells a recursive object
    get children() {
      return z.array(Tree);
    },
  });
  const tools = () => [
    tool({ name: "plant", input: z.object({ tree: Tree }), run: () => "planted" }),
    tool({
      name: "span",
      input: z.object({ at: z.tuple([z.number(), z.number()]) }),
      run: () => "",
    }),
    tool({
      name: "stamp",
      output: z.object({ when: z.string().transform((s) => s.length) }),
      run: () => ({ when: "now" }),
    }),
    tool({ name: "plain", input: z.object({ n: z.int().min(1) }), run: () => "" }),
  ];

  it("is a DefinitionError naming the tool, the zod type and the option that links the converter", () => {
    let error: unknown;
    try {
      defineServer({ name: "trees", version: "1", tools: tools() });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(DefinitionError);
    const { problems } = error as DefinitionError;
    expect(problems).toEqual([
      `tool "plant": its input schema has a recursive schema at .tree.children[], which edgemcp's JSON Schema writer does not cover; link zod's converter with defineServer({ ..., toJSONSchema: z.toJSONSchema }), or advertise a hand-written inputSchema.`,
      `tool "span": its input schema has z.tuple() at .at, which edgemcp's JSON Schema writer does not cover; link zod's converter with defineServer({ ..., toJSONSchema: z.toJSONSchema }), or advertise a hand-written inputSchema.`,
      `tool "stamp": its output schema has z.transform() at .when, which edgemcp's JSON Schema writer does not cover; link zod's converter with defineServer({ ..., toJSONSchema: z.toJSONSchema }), or advertise a hand-written outputSchema.`,
    ]);
  });

  for (const [flavour, converter] of [
    ["classic", z.toJSONSchema],
    ["mini", zm.toJSONSchema],
  ] as const) {
    it(`is derived by zod's converter when the server links it (${flavour} z.toJSONSchema)`, () => {
      const linked = defineServer({
        name: "trees",
        version: "1",
        toJSONSchema: converter,
        tools: tools(),
      });
      const wire = (name: string) => linked.catalog.tools.get(name)!.wire;
      const { $schema: _dialect, ...tree } = z.toJSONSchema(z.object({ tree: Tree }), {
        io: "input",
        unrepresentable: "any",
      });
      expect(wire("plant").inputSchema).toEqual(tree);
      expect(JSON.stringify(wire("plant").inputSchema)).toContain('"$ref"');
      expect(wire("span").inputSchema.properties).toEqual({
        at: {
          type: "array",
          prefixItems: [{ type: "number" }, { type: "number" }],
          items: false,
          minItems: 2,
          maxItems: 2,
        },
      });
      expect(wire("stamp").outputSchema?.properties).toEqual({ when: {} });
      // Compact as the writer's: no ±(2^53 - 1) bounds.
      expect(wire("plain").inputSchema.properties).toEqual({
        n: { type: "integer", minimum: 1 },
      });
    });
  }
});
