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
    shareable: ["X-Team"],
  };
  /** The fragment a hand-made link would carry. */
  const crafted = (payload: Record<string, unknown>) =>
    "#request=" +
    btoa(JSON.stringify({ v: 1, url: link.url, era: "auto", kind: "tool", name: "t", ...payload }))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replace(/=+$/, "");
  const carried = (hash: string) =>
    atob(hash.slice("#request=".length).replaceAll("-", "+").replaceAll("_", "/"));

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

  it("takes every header the user entered as secret unless marked shareable", () => {
    const hash = encodePermalink({
      ...link,
      headers: {
        "X-Auth-Key": "k-123",
        "Ocp-Apim-Subscription-Key": "sub-456",
        "X-Team": "core",
        "X-Region": "eu",
      },
      shareable: ["x-team"],
    });
    expect(carried(hash)).not.toMatch(/k-123|sub-456|"eu"/);
    expect(decodePermalink(hash)).toMatchObject({
      headers: { "X-Team": "core" },
      secretHeaders: ["X-Auth-Key", "Ocp-Apim-Subscription-Key", "X-Region"],
    });
  });

  it("never carries a credential's value, even marked shareable, nor a padded name", () => {
    const hash = encodePermalink({
      ...link,
      headers: { " Authorization ": "Bearer secret-token", "X-Api-Token": "t-1" },
      shareable: ["Authorization", " Authorization ", "X-Api-Token"],
    });
    expect(carried(hash)).not.toMatch(/secret-token|t-1/);
    expect(decodePermalink(hash)).toMatchObject({
      secretHeaders: ["Authorization", "X-Api-Token"],
    });
  });

  it("sets no header whose name a link pads with whitespace or breaks", () => {
    const decoded = decodePermalink(
      crafted({
        headers: {
          " Authorization": "Bearer attacker",
          "Authorization\t": "Bearer attacker",
          "Cookie ": "s=1",
          "X-Ok": "fine",
          "X Bad": "no",
          "X-Colon:": "no",
        },
        secretHeaders: [" Authorization", "X-Key\n", "X-Key"],
      }),
    );
    expect(decoded).toMatchObject({ headers: { "X-Ok": "fine" }, secretHeaders: ["X-Key"] });
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
