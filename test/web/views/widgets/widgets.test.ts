import { describe, expect, it } from "vitest";
import { JsonTree } from "../../../../web/src/views/widgets/json-tree.tsx";
import { Markdown } from "../../../../web/src/views/widgets/markdown.tsx";
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
});
