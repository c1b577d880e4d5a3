import { describe, expect, it } from "vitest";
import {
  arrayOf,
  is,
  object,
  optional,
  problemsOf,
  string,
} from "../../../shared/protocol/hand-check.ts";

// The pieces alone; what they take and refuse is held to the protocol's schemas through the
// checks built of them (content-check, declared, params).

describe("hand-check pieces", () => {
  it("say every problem of an object, in the order of its fields, with their paths", () => {
    const check = object({ a: string, b: optional(string), c: object({ d: string }) });
    expect(problemsOf(check, { a: 1, b: 2, c: {} }, "x")).toEqual([
      "x.a: expected a string",
      "x.b: expected a string",
      "x.c.d: expected a string",
    ]);
    expect(problemsOf(check, { a: "1", c: { d: "" } })).toEqual([]);
  });

  it("say an array's first bad item only, however many follow", () => {
    const items = [..."ab", ...Array.from({ length: 1000 }, (_, i) => i)];
    expect(problemsOf(arrayOf(string), items, "list")).toEqual(["list[2]: expected a string"]);
  });

  it("say a refused object in the words given, which may speak of the value", () => {
    const words = (value: unknown) => `not ${Array.isArray(value) ? "an array" : typeof value}`;
    expect(problemsOf(object({}, words), [], "p")).toEqual(["p: not an array"]);
    expect(problemsOf(object({}), null, "p")).toEqual(["p: expected an object"]);
    expect(problemsOf(is(Number.isFinite, words), "1", "n")).toEqual(["n: not string"]);
  });
});
