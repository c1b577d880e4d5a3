import { describe, expect, it } from "vitest";
import { UrlElicitations } from "../../../../web/src/views/call/url-elicitations.tsx";
import { mount } from "../render.ts";

const data = (url: string) => ({
  elicitations: [{ mode: "url", message: "Link your account", url, elicitationId: "e1" }],
});

describe("the pages a -32042 error asks for", () => {
  it("links each https page with its message", () => {
    const root = mount(UrlElicitations, { code: -32042, data: data("https://example.com/a") });
    expect(root.querySelector("li")?.textContent).toContain("Link your account");
    expect(root.querySelector("a")?.getAttribute("href")).toBe("https://example.com/a");
  });

  it("shows a page that is no web address as text, never as a link", () => {
    const root = mount(UrlElicitations, { code: -32042, data: data("javascript:alert(1)") });
    expect(root.querySelector("a")).toBeNull();
    expect(root.querySelector("code")?.textContent).toBe("javascript:alert(1)");
  });

  it("shows nothing for another code or data of another shape", () => {
    expect(mount(UrlElicitations, { code: -32603, data: data("https://e.com") }).innerHTML).toBe(
      "",
    );
    expect(mount(UrlElicitations, { code: -32042, data: { elicitations: "x" } }).innerHTML).toBe(
      "",
    );
  });
});
