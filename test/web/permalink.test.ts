import { describe, expect, it } from "vitest";
import { decodePermalink, encodePermalink } from "../../web/src/lib/permalink.ts";

describe("permalinks", () => {
  const link = {
    url: "http://localhost:8787/mcp",
    era: "auto" as const,
    kind: "tool" as const,
    name: "ops__deploy_release",
    args: { version: "1.2.3", note: "ünïcode ✓" },
    headers: { "X-Team": "core", Authorization: "Bearer secret-token" },
  };

  it("round-trips the request, non-ASCII arguments included", () => {
    const decoded = decodePermalink(encodePermalink(link));
    expect(decoded).toMatchObject({
      url: link.url,
      era: "auto",
      kind: "tool",
      name: link.name,
      args: link.args,
    });
  });

  it("never carries a secret header's value, only its name", () => {
    const hash = encodePermalink(link);
    expect(
      atob(hash.slice("#request=".length).replaceAll("-", "+").replaceAll("_", "/")),
    ).not.toContain("secret-token");
    const decoded = decodePermalink(hash);
    expect(decoded).toMatchObject({
      headers: { "X-Team": "core" },
      secretHeaders: ["Authorization"],
    });
  });

  it("is a URL fragment safe to paste (no characters that need escaping)", () => {
    expect(encodePermalink(link)).toMatch(/^#request=[A-Za-z0-9_-]+$/);
  });

  it("ignores other fragments and explains a damaged or foreign link", () => {
    expect(decodePermalink("#section")).toBeUndefined();
    expect(decodePermalink("#request=%%%")).toMatch(/damaged/);
    expect(decodePermalink(`#request=${btoa(JSON.stringify({ v: 9 }))}`)).toMatch(
      /another version/,
    );
  });
});
