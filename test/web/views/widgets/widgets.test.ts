import { describe, expect, it } from "vitest";
import { JsonTree } from "../../../../web/src/views/widgets/json-tree.tsx";
import { Markdown } from "../../../../web/src/views/widgets/markdown.tsx";
import { Provenance } from "../../../../web/src/views/widgets/provenance.tsx";
import { fire, mount } from "../render.ts";

describe("the small widgets", () => {
  it("a JSON tree shows members by key, folds deeper levels, and marks a member a schema refused", () => {
    const root = mount(JsonTree, {
      value: { name: "Ada", tags: ["x"], deep: { deeper: { deepest: 1 } } },
      problems: [{ pointer: "/name", message: "must be a number" }],
    });
    expect(root.querySelector(".tree-leaf.invalid")?.textContent).toContain("must be a number");
    expect(root.querySelector(".tree-string")?.textContent).toContain("Ada");
    const folded = [...root.querySelectorAll<HTMLButtonElement>(".tree-toggle")].find(
      (b) => b.getAttribute("aria-expanded") === "false",
    );
    expect(folded?.textContent).toContain("deeper");
    expect(root.textContent).not.toContain("deepest");
    fire(folded!);
    expect(root.textContent).toContain("deepest");
  });

  it("markdown renders headings, emphasis and code, and never a script or an unsafe link", () => {
    const root = mount(Markdown, {
      text: "# Title\n\nSome **bold** and `code`.\n\n[bad](javascript:alert(1)) <script>x</script>",
    });
    expect(root.querySelector(".md-h")?.textContent).toBe("Title");
    expect([...root.querySelectorAll("strong")].map((s) => s.textContent)).toContain("bold");
    expect(root.querySelector("code")?.textContent).toBe("code");
    expect(root.querySelector("script")).toBeNull();
    expect(root.querySelector('a[href^="javascript"]')).toBeNull();
  });

  it("provenance says where a result came from and how long after now it stays fresh", () => {
    const cached = {
      result: {},
      source: "cache",
      freshUntil: 60_000,
      cacheScope: "private",
    } as const;
    const fresh = mount(Provenance, { reply: cached, now: 54_000 });
    expect(fresh.querySelector(".badge")?.textContent).toBe("from cache");
    expect(fresh.textContent).toContain("fresh 6.0 s");
    expect(fresh.textContent).toContain("· private");
    expect(mount(Provenance, { reply: cached, now: 5_000 }).textContent).toContain("fresh 55 s");
    const stale = mount(Provenance, { reply: cached, now: 60_000 });
    expect(stale.querySelector(".warn-text")?.textContent?.trim()).toBe("stale");
    expect(stale.textContent).not.toContain("fresh");
    const network = mount(Provenance, {
      reply: { result: {}, source: "network" as const },
      now: 0,
    });
    expect(network.querySelector(".badge")?.textContent).toBe("from network");
    expect(network.textContent).toContain("not cached");
    expect(network.textContent).not.toContain("·");
  });
});
