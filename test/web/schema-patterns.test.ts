import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  onPatternVerdicts,
  PATTERN_BUDGET_MS,
  patternsIdle,
  usePatternThreads,
  type PatternThread,
} from "../../web/src/lib/schema/patterns.ts";
import type { Schema } from "../../web/src/lib/schema/resolve.ts";
import { validate } from "../../web/src/lib/schema/validate.ts";

// The page tests patterns in a Web Worker; in Node the same job runs in a worker thread, which
// a pattern holds for real and which is ended for real when its time is up.
const THREAD = `
const { parentPort } = require("node:worker_threads");
parentPort.on("message", ({ id, pattern, text }) => {
  parentPort.postMessage({ id, started: true });
  try {
    parentPort.postMessage({ id, matched: new RegExp(pattern, "u").test(text) });
  } catch (error) {
    parentPort.postMessage({ id, invalid: String(error) });
  }
});`;

// A thread that takes longer to load than a test may run, as a fresh Web Worker can on a busy
// machine.
const SLOW_TO_START = `{ const until = Date.now() + ${PATTERN_BUDGET_MS * 1.5}; while (Date.now() < until); }${THREAD}`;

const started: Worker[] = [];
function nodeThread(source = THREAD): PatternThread {
  const worker = new Worker(source, { eval: true });
  started.push(worker);
  const thread: PatternThread = {
    onmessage: null,
    postMessage: (job) => worker.postMessage(job),
    terminate: () => void worker.terminate(),
  };
  worker.on("message", (data) => thread.onmessage?.({ data }));
  return thread;
}

beforeAll(() => usePatternThreads(() => nodeThread()));
afterAll(async () => {
  usePatternThreads(undefined);
  await Promise.all(started.map((w) => w.terminate()));
});

/** Validates again after each batch of pattern verdicts, until no test is left to answer. */
async function settled(schema: Schema, value: unknown) {
  for (;;) {
    const answered = new Promise<void>((resolve) => {
      const stop = onPatternVerdicts(() => (stop(), resolve()));
    });
    const problems = validate(schema, value);
    if (patternsIdle()) return problems;
    await answered;
  }
}

const field = (pattern: string) => ({
  type: "object",
  properties: { id: { type: "string", pattern } },
});

describe("a server's pattern, tested off the page's thread", () => {
  it("never holds the caller: a pattern that backtracks without end answers at once, then as unchecked", async () => {
    // ^(a+)+$ against 40 a's and a '!' takes hours in a backtracking engine.
    const schema = field("^(a+)+$");
    const value = { id: `${"a".repeat(40)}!` };
    const before = performance.now();
    expect(validate(schema, value)).toEqual([]);
    expect(performance.now() - before).toBeLessThan(PATTERN_BUDGET_MS);
    const problems = await settled(schema, value);
    expect(problems).toEqual([
      {
        pointer: "/id",
        message: `Not checked here: the server's pattern took over 1 s on this value (the server checks it when you send).`,
        unchecked: true,
      },
    ]);
    // The stopped thread is replaced: the next value is tested as usual.
    expect(await settled(schema, { id: "aaa" })).toEqual([]);
    expect(await settled(schema, { id: "aab" })).toEqual([
      { pointer: "/id", message: "String does not match pattern." },
    ]);
  }, 30_000);

  it("gives a test its time from when the thread begins it, not while a fresh thread loads", async () => {
    usePatternThreads(() => nodeThread(SLOW_TO_START));
    try {
      expect(await settled(field("^x"), { id: "y" })).toEqual([
        { pointer: "/id", message: "String does not match pattern." },
      ]);
    } finally {
      usePatternThreads(() => nodeThread());
    }
  }, 30_000);

  it("reports a value that does not match once its test answers, and none for one that does", async () => {
    const schema = field("^[a-z]+-[0-9]{2}$");
    expect(await settled(schema, { id: "note-07" })).toEqual([]);
    expect(await settled(schema, { id: "Note 7" })).toEqual([
      { pointer: "/id", message: "String does not match pattern." },
    ]);
  });

  it("tests patterns wherever the schema has them: behind a $ref, in items, in propertyNames", async () => {
    const schema = {
      $defs: { code: { type: "string", pattern: "^x" } },
      type: "object",
      properties: {
        code: { $ref: "#/$defs/code" },
        tags: { type: "array", items: { type: "string", pattern: "^#" } },
        map: { type: "object", propertyNames: { pattern: "^k" } },
      },
    };
    const problems = await settled(schema, { code: "y", tags: ["#ok", "bad"], map: { k1: 1 } });
    expect(problems).toEqual([
      { pointer: "/code", message: "String does not match pattern." },
      { pointer: "/tags/1", message: "String does not match pattern." },
    ]);
  });

  it("tests patternProperties the same way: a key pattern that backtracks holds nothing, and ordinary ones keep their meaning", async () => {
    const schema = {
      type: "object",
      patternProperties: { "^(a+)+$": { type: "number" }, "^x-": { type: "string" } },
      additionalProperties: false,
    };
    const long = `${"a".repeat(40)}!`;
    const before = performance.now();
    validate(schema, { [long]: 1 });
    expect(performance.now() - before).toBeLessThan(PATTERN_BUDGET_MS);
    // A key whose test ran out of time counts as matching: its value is held to that schema.
    expect(await settled(schema, { [long]: "one" })).toEqual([
      { pointer: `/${long}`, message: expect.stringMatching(/type/) },
    ]);
    expect(await settled(schema, { aaa: 1, "x-tag": "t" })).toEqual([]);
    expect(await settled(schema, { aaa: "1", "x-tag": 2, other: true })).toEqual([
      { pointer: "/aaa", message: expect.stringMatching(/type/) },
      { pointer: "/x-tag", message: expect.stringMatching(/type/) },
      { pointer: "/other", message: "Not an allowed property." },
    ]);
  }, 30_000);

  it("leaves a pattern alone where it is data: in const, enum, default and examples", async () => {
    const schema = {
      type: "object",
      properties: { rule: { const: { pattern: "^(a+)+$" } } },
    };
    expect(await settled(schema, { rule: { pattern: "^(a+)+$" } })).toEqual([]);
    expect(validate(schema, { rule: { pattern: "other" } })).toEqual([
      { pointer: "/rule", message: expect.stringMatching(/^Value does not match/) },
    ]);
  });

  it("says a pattern that is no regex makes the schema unusable, without a test", () => {
    const problems = validate(field("(unclosed"), { id: "x" });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(
      /^The schema could not be used: Invalid regular expression/,
    );
  });
});
