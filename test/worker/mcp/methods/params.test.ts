import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { RpcError } from "../../../../shared/protocol/errors.ts";
import {
  CallToolParamsSchema,
  CancelledParamsSchema,
  InitializeParamsSchema,
  ListParamsSchema,
  SetLevelParamsSchema,
  SubscribeParamsSchema,
} from "../../../../shared/protocol/params.ts";
import { describeIssues } from "../../../../worker/mcp/schema/issues.ts";
import {
  cancelledParams,
  checkedParams,
  paramsProblems,
} from "../../../../worker/mcp/methods/params.ts";

class Box {
  cursor = "a";
}

// Shapes that break each kind of check, given in every member the params have.
const WRONG: [string, unknown][] = [
  ["absent", undefined],
  ["null", null],
  ["a number", 1],
  ["a boolean", true],
  ["a string", "x"],
  ["an empty string", ""],
  ["an array", ["x"]],
  ["an object", { a: 1 }],
  ["an instance", new Box()],
];

const client = { name: "c", version: "1" };
const init = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: client };

// Each kind of params, its schema in shared/protocol/params.ts, and params good and bad beyond
// the WRONG values put in each of its members.
const KINDS = [
  {
    kind: "list",
    schema: ListParamsSchema,
    good: { cursor: "abc" },
    cases: [{}, { cursor: "" }, { cursor: "a", other: 1 }],
  },
  {
    kind: "call",
    schema: CallToolParamsSchema,
    good: { name: "t", arguments: { a: 1 }, inputResponses: { k: {} }, requestState: "s" },
    cases: [
      { name: "t" },
      {},
      { name: 1, arguments: 2, inputResponses: [], requestState: 3 },
      { name: "t", arguments: null },
      { name: "t", arguments: [] },
      { name: "t", arguments: new Box() },
      { name: "t", extra: true },
    ],
  },
  {
    kind: "initialize",
    schema: InitializeParamsSchema,
    good: init,
    cases: [
      {},
      { ...init, clientInfo: { name: "c" } },
      { ...init, clientInfo: { version: 1 } },
      { ...init, clientInfo: { ...client, title: "C", extra: [] } },
      { protocolVersion: 2, capabilities: [], clientInfo: [] },
      { ...init, capabilities: { tasks: {}, roots: { listChanged: true } } },
    ],
  },
  {
    kind: "setLevel",
    schema: SetLevelParamsSchema,
    good: { level: "debug" },
    cases: [
      { level: "emergency" },
      { level: "loud" },
      { level: "DEBUG" },
      { level: "toString" },
      { level: ["debug"] },
      {},
    ],
  },
  {
    kind: "subscribe",
    schema: SubscribeParamsSchema,
    good: { uri: "test://watched" },
    cases: [
      { uri: "https://a.example/b?c=d#e" },
      { uri: "urn:isbn:0451450523" },
      { uri: "no-scheme" },
      { uri: "1a://b" },
      { uri: "a b:c" },
      { uri: "a://b c" },
      { uri: "a://é" },
      { uri: "a:" },
      { uri: ":b" },
      { uri: "a://b\n" },
    ],
  },
] as const;

/** What the schema says of `params`, as the runtime said it when it parsed them with zod. */
function schemaSays(schema: z.core.$ZodType, params: unknown): string {
  const parsed = z.safeParse(schema, params);
  return parsed.success ? "" : describeIssues(parsed.error, "params", params);
}

const table = KINDS.flatMap(({ kind, schema, good, cases }) => [
  ...[good, ...cases].map((params) => ({ kind, schema, name: JSON.stringify(params), params })),
  ...Object.keys(good).flatMap((member) =>
    WRONG.map(([what, value]) => ({
      kind,
      schema,
      name: `${member} ${what}`,
      params: { ...good, [member]: value },
    })),
  ),
]);

describe("params are checked by hand as params.ts's schemas check them", () => {
  it.each(table)("$kind: $name", ({ kind, schema, params }) => {
    expect(paramsProblems(kind, params).join("; ")).toBe(schemaSays(schema, params));
  });

  it("the table holds good and bad params of every kind", () => {
    for (const { kind } of KINDS) {
      const rows = table.filter((row) => row.kind === kind);
      expect(rows.some((row) => paramsProblems(kind, row.params).length === 0)).toBe(true);
      expect(
        rows.filter((row) => paramsProblems(kind, row.params).length > 0).length,
      ).toBeGreaterThan(3);
    }
  });

  it("bad params are refused with -32602 naming the method and each problem", () => {
    const refusal = (() => {
      try {
        checkedParams("call", { name: 1, arguments: "x" }, "tools/call");
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(RpcError);
    expect(refusal).toMatchObject({
      code: -32602,
      message:
        "Invalid params for tools/call: params.name: Invalid input: expected string, received number; " +
        "params.arguments: Invalid input: expected record, received string",
    });
  });

  it("good params are handed back as they are", () => {
    expect(checkedParams("initialize", init, "initialize").protocolVersion).toBe("2025-06-18");
    expect(checkedParams("list", { cursor: "c" }, "tools/list").cursor).toBe("c");
  });
});

describe("a cancellation is read as CancelledParamsSchema reads it", () => {
  const cancellations: unknown[] = [
    { requestId: "a" },
    { requestId: 7, reason: "user" },
    { requestId: 0 },
    { requestId: "a", other: true },
    { requestId: null },
    { requestId: true },
    { requestId: ["a"] },
    { requestId: { id: 1 } },
    { reason: "no id" },
    { requestId: "a", reason: 3 },
    { requestId: "a", reason: null },
    {},
    null,
    "a",
    [],
    undefined,
  ];

  it.each(cancellations.map((params) => ({ params, name: JSON.stringify(params) })))(
    "$name",
    ({ params }) => {
      const parsed = CancelledParamsSchema.safeParse(params);
      const expected = parsed.success
        ? { requestId: parsed.data.requestId, reason: parsed.data.reason }
        : undefined;
      expect(cancelledParams(params)).toEqual(expected);
    },
  );
});
