import { describe, expect, it } from "vitest";
import * as z from "zod";
import * as zm from "zod/mini";
import { jsonSchemaOf } from "../../../../worker/mcp/schema/json-schema.ts";
import { UncoveredSchema, writeJsonSchema } from "../../../../worker/mcp/schema/writer.ts";

enum Color {
  Red,
  Green,
}
enum Size {
  S = "small",
  L = "large",
}

/** Schemas written with classic zod: every type and check the writer covers. */
const classic: Record<string, z.ZodType> = {
  string: z.string(),
  number: z.number(),
  boolean: z.boolean(),
  null: z.null(),
  any: z.any(),
  unknown: z.unknown(),
  never: z.never(),
  lengths: z.string().min(2).max(8),
  length: z.string().length(4),
  nonempty: z.string().nonempty(),
  regex: z.string().regex(/^[a-z]+$/),
  regexes: z.string().regex(/^a/).regex(/b$/),
  starts: z.string().startsWith("x").endsWith("y").includes("m"),
  cases: z.string().lowercase(),
  upper: z.string().uppercase(),
  trimmed: z.string().trim().toLowerCase(),
  email: z.email(),
  emailMethod: z.string().email(),
  emailRegex: z.email().regex(/@example\.com$/),
  emailMin: z.email().min(5).max(100),
  url: z.url(),
  httpUrl: z.httpUrl(),
  uuid: z.uuid(),
  uuidv4: z.uuidv4(),
  guid: z.guid(),
  datetime: z.iso.datetime(),
  datetimeOffset: z.iso.datetime({ offset: true }),
  datetimeLocal: z.iso.datetime({ local: true }),
  datetimePrecision: z.iso.datetime({ precision: 3 }),
  date: z.iso.date(),
  time: z.iso.time(),
  duration: z.iso.duration(),
  ipv4: z.ipv4(),
  ipv6: z.ipv6(),
  cidrv4: z.cidrv4(),
  cidrv6: z.cidrv6(),
  base64: z.base64(),
  base64url: z.base64url(),
  emoji: z.emoji(),
  nanoid: z.nanoid(),
  cuid: z.cuid(),
  cuid2: z.cuid2(),
  ulid: z.ulid(),
  xid: z.xid(),
  ksuid: z.ksuid(),
  jwt: z.jwt(),
  e164: z.e164(),
  hostname: z.hostname(),
  hex: z.hex(),
  mac: z.mac(),
  int: z.int(),
  int32: z.int32(),
  uint32: z.uint32(),
  float32: z.float32(),
  float64: z.float64(),
  intMethod: z.number().int(),
  bounds: z.number().min(1).max(10),
  exclusive: z.number().gt(0).lt(1),
  both: z.number().gt(5).gte(3).lt(9).lte(10),
  positive: z.int().positive(),
  negative: z.number().negative(),
  nonnegative: z.number().nonnegative(),
  step: z.number().multipleOf(0.5),
  steps: z.number().multipleOf(2).multipleOf(3),
  negativeStep: z.number().multipleOf(-4),
  intBounded: z.int().min(0).max(100),
  coerced: z.coerce.number().min(1),
  enum: z.enum(["a", "b", "c"]),
  nativeEnum: z.enum(Color),
  stringEnum: z.enum(Size),
  literal: z.literal("on"),
  literalNumber: z.literal(3),
  literalBoolean: z.literal(true),
  literalNull: z.literal(null),
  literals: z.literal(["a", "b"]),
  literalsMixed: z.literal(["a", 1, true]),
  template: z.templateLiteral(["id-", z.number()]),
  array: z.array(z.string()),
  arrayBounds: z.array(z.number()).min(1).max(3),
  arrayLength: z.array(z.boolean()).length(2),
  arrayNonempty: z.array(z.string()).nonempty(),
  object: z.object({ a: z.string(), b: z.number().optional() }),
  strict: z.strictObject({ a: z.string() }),
  loose: z.looseObject({ a: z.string() }),
  catchall: z.object({ a: z.string() }).catchall(z.number()),
  nested: z.object({ inner: z.object({ deep: z.array(z.object({ x: z.int() })) }) }),
  empty: z.object({}),
  optional: z.string().optional(),
  nullable: z.string().nullable(),
  nullish: z.number().nullish(),
  nullableObject: z.object({ a: z.string() }).nullable(),
  nonoptional: z.string().optional().nonoptional(),
  defaults: z.object({
    a: z.string().default("x"),
    b: z.int().default(3),
    c: z.array(z.string()).default([]),
    d: z.object({ e: z.boolean() }).default({ e: true }),
    f: z.string().default(() => "made"),
    g: z.string().optional().default("y"),
  }),
  prefault: z.object({ a: z.string().prefault("p"), b: z.number().prefault(1).describe("b") }),
  readonly: z.object({ a: z.string() }).readonly(),
  readonlyArray: z.array(z.string()).readonly(),
  union: z.union([z.string(), z.number()]),
  unionNullable: z.union([z.string(), z.number()]).nullable(),
  unionObjects: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]),
  unionDescribed: z.union([z.string().describe("s"), z.number()]),
  unionConstrained: z.union([z.string().min(1), z.null()]),
  unionOptional: z.union([z.string(), z.boolean()]).optional().describe("either"),
  discriminated: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("a"), a: z.string() }),
    z.object({ kind: z.literal("b"), b: z.number().default(0) }),
  ]),
  xor: z.xor([z.string(), z.number()]),
  record: z.record(z.string(), z.number()),
  recordKeys: z.record(z.string().min(2), z.string()),
  recordEnum: z.record(z.enum(["x", "y"]), z.boolean()),
  recordEnumOptional: z.record(z.enum(["x", "y"]), z.boolean().optional()),
  partialRecord: z.partialRecord(z.enum(["x", "y"]), z.string()),
  recordLiteral: z.record(z.literal(["p", "q"]), z.number()),
  described: z.string().describe("a name"),
  describedTwice: z.string().describe("first").optional().describe("second"),
  meta: z.string().meta({
    title: "Name",
    description: "Who",
    examples: ["Ada"],
    deprecated: true,
    "x-mcp-header": "Name",
  }),
  metaObject: z
    .object({ region: z.string().meta({ "x-mcp-header": "Region" }) })
    .meta({ title: "Args" }),
  metaNested: z.object({ a: z.int().describe("count").default(1).describe("with default") }),
  transform: z.object({ a: z.string().transform((s) => s.length) }),
  transformDefault: z.object({ a: z.string().transform((s) => s.length) }).default({ a: 1 }),
  transformInOptional: z.object({
    a: z
      .string()
      .transform((s) => s.length)
      .optional(),
  }),
  preprocess: z.preprocess((v) => String(v), z.string().min(1)),
  pipe: z.string().pipe(z.string().min(3)),
  pipeOut: z.string().transform(Number).pipe(z.number().min(1)),
  codec: z.codec(z.iso.datetime(), z.string(), { decode: (s) => s, encode: (s) => s }),
  shared: (() => {
    const name = z.string().min(1).describe("shared");
    return z.object({ a: name, b: name, c: z.array(name) });
  })(),
  proto: z.object({ ["__proto__"]: z.string(), constructor: z.number() }),
};

/** The same and more with zod/mini. */
const mini: Record<string, zm.ZodMiniType> = {
  string: zm.string(),
  checked: zm.string().check(zm.minLength(1), zm.maxLength(5), zm.regex(/^\w+$/)),
  trimmed: zm.string().check(zm.trim(), zm.minLength(1)),
  email: zm.email(),
  url: zm.url(),
  datetime: zm.iso.datetime(),
  date: zm.iso.date(),
  int: zm.int(),
  intBounds: zm.int().check(zm.gte(1), zm.lte(9)),
  number: zm.number().check(zm.gt(0), zm.multipleOf(5)),
  boolean: zm.boolean(),
  enum: zm.enum(["x", "y"]),
  literal: zm.literal(7),
  array: zm.array(zm.string()).check(zm.minLength(1), zm.maxLength(4)),
  object: zm.object({
    a: zm.string().check(zm.describe("a")),
    b: zm.optional(zm.number()),
    c: zm._default(zm.boolean(), false),
    d: zm.nullable(zm.string()),
    e: zm.readonly(zm.array(zm.int())),
  }),
  strict: zm.strictObject({ a: zm.string() }),
  loose: zm.looseObject({ a: zm.string() }),
  catchall: zm.catchall(zm.object({ a: zm.string() }), zm.string()),
  union: zm.union([zm.string(), zm.null()]),
  discriminated: zm.discriminatedUnion("type", [
    zm.object({ type: zm.literal("a") }),
    zm.object({ type: zm.literal("b"), n: zm.int() }),
  ]),
  record: zm.record(zm.string(), zm.int()),
  recordEnum: zm.record(zm.enum(["a", "b"]), zm.string()),
  meta: zm.string().check(zm.meta({ title: "T", examples: ["e"] }), zm.describe("d")),
  transformPipe: zm.pipe(
    zm.string(),
    zm.transform((s: string) => s.length),
  ),
  prefault: zm.object({ a: zm.prefault(zm.string(), "p") }),
  nonoptional: zm.nonoptional(zm.optional(zm.string())),
};

/** What the runtime wrote before the writer: zod's converter and the compact override. */
const converted = (schema: zm.core.$ZodType, io: "input" | "output") =>
  jsonSchemaOf(schema, io, zm.toJSONSchema);

const wrapped = (schema: z.ZodType) => z.object({ value: schema });

describe("the JSON Schema writer writes what zod's converter writes", () => {
  for (const [flavour, corpus] of [
    ["classic zod", classic],
    ["zod/mini", mini],
  ] as const) {
    for (const [name, schema] of Object.entries(corpus)) {
      for (const io of ["input", "output"] as const) {
        if (name.startsWith("transform") && io === "output") continue;
        it(`${flavour} ${name}, ${io}: the same keywords in the same order`, () => {
          const expected = converted(schema, io);
          const written = writeJsonSchema(schema, io);
          expect(written).toEqual(expected);
          expect(JSON.stringify(written)).toBe(JSON.stringify(expected));
          const inObject = wrapped(schema as z.ZodType);
          expect(JSON.stringify(writeJsonSchema(inObject, io))).toBe(
            JSON.stringify(converted(inObject, io)),
          );
        });
      }
    }
  }
});

describe("the writer refuses what it does not cover, naming it and where it is", () => {
  const node: z.ZodType = z.object({
    name: z.string(),
    // eslint-disable-next-line no-restricted-syntax -- a getter is how zod spells a recursive object
    get children() {
      return z.array(node);
    },
  });
  const refused: [string, z.ZodType | zm.ZodMiniType, string, "input" | "output"][] = [
    ["z.lazy", z.object({ a: z.lazy(() => z.string()) }), "z.lazy() at .a", "input"],
    ["recursion", node, "a recursive schema at .children[]", "input"],
    ["intersection", z.intersection(z.object({}), z.object({})), "z.intersection()", "input"],
    ["tuple", z.object({ at: z.tuple([z.number(), z.number()]) }), "z.tuple() at .at", "input"],
    ["date", z.object({ when: z.date() }), "z.date() at .when", "input"],
    ["bigint", z.object({ n: z.bigint() }), "z.bigint() at .n", "input"],
    ["custom", z.object({ c: z.custom<string>() }), "z.custom() at .c", "input"],
    ["map", z.map(z.string(), z.number()), "z.map()", "input"],
    ["set", z.array(z.set(z.string())), "z.set() at []", "input"],
    ["catch", z.object({ a: z.string().catch("x") }), "z.catch() at .a", "input"],
    ["undefined", z.object({ u: z.undefined() }), "z.undefined() at .u", "input"],
    [
      "transform output",
      z.object({ n: z.string().transform(Number) }),
      "z.transform() at .n",
      "output",
    ],
    ["bare transform", z.transform((v) => v), "z.transform()", "input"],
    ["union branch", z.union([z.string(), z.date()]), "z.date() at |1", "input"],
    [
      "id",
      z.object({ a: z.string().meta({ id: "A" }) }),
      "a schema with an id (.meta({ id })) at .a",
      "input",
    ],
    ["number keys", z.record(z.number(), z.string()), "z.record() with number keys", "input"],
    ["bigint literal", z.literal(1n), "a literal bigint", "input"],
    [
      "bigint default",
      z.object({ n: z.number().default(1n as unknown as number) }),
      "a bigint default at .n",
      "input",
    ],
    ["mini tuple", zm.object({ t: zm.tuple([zm.string()]) }), "z.tuple() at .t", "input"],
  ];
  for (const [name, schema, message, io] of refused) {
    it(`refuses ${name} (${message})`, () => {
      expect(() => writeJsonSchema(schema, io)).toThrow(UncoveredSchema);
      expect(() => writeJsonSchema(schema, io)).toThrow(message);
    });
  }

  it("writes the compact forms it is tested against", () => {
    expect(writeJsonSchema(classic.unionNullable!, "input")).toEqual({
      type: ["string", "number", "null"],
    });
    expect(writeJsonSchema(z.object({ at: z.iso.datetime(), n: z.int() }), "output")).toEqual({
      type: "object",
      properties: { at: { type: "string", format: "date-time" }, n: { type: "integer" } },
      required: ["at", "n"],
      additionalProperties: false,
    });
  });
});

describe("the project's own servers", () => {
  it("have every tool schema written as zod's converter writes it", async () => {
    const servers = await Promise.all([
      import("../../../../worker/servers/everything/index.ts").then((m) => m.everything),
      import("../../../../worker/servers/notes/index.ts").then((m) => m.notes),
      import("../../../../worker/servers/ops/index.ts").then((m) => m.ops),
      import("../../../../worker/servers/analytics/index.ts").then((m) => m.analytics),
    ]);
    let compared = 0;
    for (const server of servers) {
      for (const tool of server.definition.tools ?? []) {
        for (const [schema, io] of [
          [tool.input, "input"],
          [tool.output, "output"],
        ] as const) {
          if (schema === undefined) continue;
          expect(JSON.stringify(writeJsonSchema(schema, io))).toBe(
            JSON.stringify(converted(schema, io)),
          );
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(20);
  });
});
