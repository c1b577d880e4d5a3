import { describe, expect, it } from "vitest";
import { renameIn } from "../../../worker/hub/errors.ts";
describe("upstream error messages", () => {
  const add = { kind: "tool", original: "add", exposed: "math__add" } as const;

  it.each([
    [
      'Invalid arguments for tool "add": arguments.a: expected number',
      'Invalid arguments for tool "math__add": arguments.a: expected number',
    ],
    ["Tool add not found", "Tool math__add not found"],
    [
      "MCP error -32602: Invalid arguments for tool add: bad",
      "MCP error -32602: Invalid arguments for tool math__add: bad",
    ],
  ])("names the tool as the hub's client knows it: %s", (message, expected) => {
    expect(renameIn(message, add)).toBe(expected);
  });

  it("leaves other words, longer names and other kinds alone", () => {
    expect(renameIn("add more digits", add)).toBe("add more digits");
    expect(renameIn('Unknown tool "add_numbers"', add)).toBe('Unknown tool "add_numbers"');
    expect(renameIn('Invalid arguments for prompt "add"', add)).toBe(
      'Invalid arguments for prompt "add"',
    );
  });

  it("treats names as text, not patterns", () => {
    const dotted = { kind: "tool", original: "a.b", exposed: "x__a.b" } as const;
    expect(renameIn("Tool axb not found", dotted)).toBe("Tool axb not found");
    expect(renameIn("Tool a.b not found", dotted)).toBe("Tool x__a.b not found");
  });
});
