import { describe, expect, it } from "vitest";
import { inlines, parseMarkdown, safeHref } from "../../web/src/lib/markdown.ts";

describe("the Markdown reader", () => {
  it("reads headings, lists, code fences, quotes and tables into blocks", () => {
    const blocks = parseMarkdown(
      "# Title\n\nSome *text*.\n\n- a\n- b\n\n```sql\nSELECT 1\n```\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    );
    expect(blocks.map((b) => b.t)).toEqual(["h", "p", "list", "code", "quote", "table"]);
    expect(blocks[3]).toEqual({ t: "code", lang: "sql", v: "SELECT 1" });
  });

  it("keeps markup as text: a script tag is a string, never an element", () => {
    expect(parseMarkdown("<script>alert(1)</script>")).toEqual([
      { t: "p", c: [{ t: "text", v: "<script>alert(1)</script>" }] },
    ]);
  });

  it("links only http(s) and mailto targets", () => {
    expect(safeHref("javascript:alert(1)")).toBeUndefined();
    expect(inlines("[x](javascript:alert(1))")[0]).toMatchObject({ t: "link", href: undefined });
    expect(inlines("[docs](https://example.com)")[0]).toMatchObject({
      t: "link",
      href: "https://example.com",
    });
  });

  it("leaves snake_case names alone", () => {
    expect(inlines("tools named test_* and add_numbers")).toEqual([
      { t: "text", v: "tools named test_* and add_numbers" },
    ]);
  });
});
