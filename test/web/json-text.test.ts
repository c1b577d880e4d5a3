import { describe, expect, it } from "vitest";
import { formatJson, parseDraft, textSays } from "../../web/src/lib/json-text.ts";

describe("the JSON tab's text", () => {
  it("parses to the value the form edits", () => {
    expect(parseDraft('{"a": [1, {"b": null}]}')).toEqual({
      ok: true,
      value: { a: [1, { b: null }] },
    });
  });

  it("keeps a broken draft as an error with a line and column, never a value", () => {
    const draft = parseDraft('{\n  "a": 1,\n  "b": \n}');
    expect(draft.ok).toBe(false);
    if (!draft.ok) {
      expect(draft.line).toBe(4);
      expect(draft.message).not.toBe("");
    }
  });

  it("counts text that says the same value as in sync, whatever its formatting", () => {
    expect(textSays('{"a":1,"b":[2]}', { a: 1, b: [2] })).toBe(true);
    expect(textSays('{"a":1}', { a: 2 })).toBe(false);
    expect(textSays("{", {})).toBe(false);
  });

  it("formats a value for the tab, and nothing as an empty object", () => {
    expect(formatJson({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(formatJson(undefined)).toBe("{}");
  });
});
