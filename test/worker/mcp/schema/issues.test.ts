import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as zm from "zod/mini";
import { describeIssues } from "../../../../worker/mcp/schema/issues.ts";

class Point {
  x = 1;
}

/** Values that fail their schema, one issue code or format each. */
const failures: [string, zm.ZodMiniType, unknown][] = [
  ["a string given a number", zm.string(), 42],
  ["a number given a string", zm.number(), "x"],
  ["a number given NaN", zm.number(), NaN],
  ["a number given Infinity", zm.number(), Infinity],
  ["a boolean given null", zm.boolean(), null],
  ["an object given an array", zm.object({}), []],
  ["a string given a class instance", zm.string(), new Point()],
  ["a required property left out", zm.object({ a: zm.string() }), {}],
  ["an int given a fraction", zm.int(), 1.5],
  ["a literal", zm.literal("on"), "off"],
  ["an enum", zm.enum(["a", "b"]), "c"],
  ["a short string", zm.string().check(zm.minLength(3)), "ab"],
  ["a long string", zm.string().check(zm.maxLength(2)), "abc"],
  ["an exact length", zm.string().check(zm.length(2)), "abc"],
  ["a small number", zm.number().check(zm.gt(0)), 0],
  ["a small inclusive number", zm.number().check(zm.gte(1)), 0],
  ["a big number", zm.number().check(zm.lte(5)), 6],
  ["a big exclusive number", zm.number().check(zm.lt(5)), 5],
  ["a short array", zm.array(zm.string()).check(zm.minLength(1)), []],
  ["a long array", zm.array(zm.string()).check(zm.maxLength(1)), ["a", "b"]],
  ["a multiple", zm.number().check(zm.multipleOf(3)), 4],
  ["an email", zm.email(), "nope"],
  ["a URL", zm.url(), "nope"],
  ["a UUID", zm.uuid(), "nope"],
  ["a date-time", zm.iso.datetime(), "yesterday"],
  ["a date", zm.iso.date(), "2026-13-45"],
  ["an IPv4 address", zm.ipv4(), "1.2.3"],
  ["base64", zm.base64(), "$$"],
  ["an emoji", zm.emoji(), "a"],
  ["a pattern", zm.string().check(zm.regex(/^[A-Z]+$/)), "abc"],
  ["a prefix", zm.string().check(zm.startsWith("x")), "abc"],
  ["a suffix", zm.string().check(zm.endsWith("x")), "abc"],
  ["an infix", zm.string().check(zm.includes("x")), "abc"],
  ["unknown keys", zm.strictObject({ a: zm.string() }), { a: "", b: 1, c: 2 }],
  ["one unknown key", zm.strictObject({}), { b: 1 }],
  ["a union", zm.union([zm.string(), zm.number()]), true],
  [
    "a discriminated union",
    zm.discriminatedUnion("kind", [
      zm.object({ kind: zm.literal("a") }),
      zm.object({ kind: zm.literal("b") }),
    ]),
    { kind: "c" },
  ],
  ["a record key", zm.record(zm.string().check(zm.minLength(2)), zm.number()), { a: 1 }],
  ["a nested value", zm.object({ list: zm.array(zm.object({ n: zm.int() })) }), { list: [{}] }],
];

describe("argument errors are English without zod's locale", () => {
  let saved: zm.core.$ZodConfig;
  beforeEach(() => {
    saved = { ...zm.config() };
  });
  afterEach(() => {
    zm.config({ localeError: undefined, customError: undefined });
    zm.config(saved);
  });

  /** The line for `value` with zod's global configuration set to `config`. */
  const line = (schema: zm.ZodMiniType, value: unknown, config: zm.core.$ZodConfig) => {
    zm.config({ localeError: undefined, customError: undefined });
    zm.config(config);
    const parsed = zm.safeParse(schema, value);
    expect(parsed.success).toBe(false);
    return {
      issues: parsed.error!.issues,
      text: describeIssues(parsed.error!, "arguments", value),
    };
  };

  for (const [name, schema, value] of failures) {
    it(`says what zod's English locale says for ${name}`, () => {
      const bare = line(schema, value, {});
      // As in a zod/mini Worker: zod itself had nothing to say.
      expect(bare.issues.every((issue) => issue.message === "Invalid input")).toBe(true);
      expect(bare.text).toBe(line(schema, value, zm.locales.en()).text);
    });
  }

  it("names the expected and received types", () => {
    expect(line(zm.object({ a: zm.string() }), { a: 1 }, {}).text).toBe(
      "arguments.a: Invalid input: expected string, received number",
    );
  });

  it("keeps a message the schema set", () => {
    const schema = zm.string().check(zm.minLength(3, "Give at least three letters"));
    expect(line(schema, "ab", {}).text).toBe("arguments: Give at least three letters");
  });

  it("keeps the messages of a locale or error map the application set", () => {
    expect(line(zm.string(), 1, { customError: () => "Pas une chaîne" }).text).toBe(
      "arguments: Pas une chaîne",
    );
  });

  it("sets nothing in zod's global configuration", () => {
    zm.config({ localeError: undefined, customError: undefined });
    describeIssues(zm.safeParse(zm.string(), 1).error!, "arguments", 1);
    expect(zm.config().localeError).toBeUndefined();
    expect(zm.config().customError).toBeUndefined();
  });
});
