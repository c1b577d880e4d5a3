import { describe, expect, it } from "vitest";
import { decodeHeaderValue, encodeHeaderValue } from "../../../shared/protocol/headers.ts";
describe("header value encoding", () => {
  it.each([
    ["us-west1", "us-west1"],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
    ["", "=?base64??="],
  ])("encodes %j as the spec says, and decodes it back", (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
    expect(decodeHeaderValue(encoded)).toEqual({ ok: true, value });
  });

  it("treats an upper-case sentinel as a literal value", () => {
    expect(decodeHeaderValue("=?BASE64?SGk=?=")).toEqual({ ok: true, value: "=?BASE64?SGk=?=" });
  });

  it("refuses raw non-ASCII", () => {
    expect(decodeHeaderValue("caf\u00e9").ok).toBe(false);
  });
});
