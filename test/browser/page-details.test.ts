import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodePermalink } from "../../web/src/lib/permalink.ts";
import { TEST_TOKENS } from "../support/secrets.ts";
import { launchChromium, screenshot, type Chromium } from "./chromium.ts";
import {
  catalogOf,
  checkAccessibility,
  connectTo,
  openPlayground,
  screenshotBoth,
  select,
  worker,
} from "./playground.ts";

let chromium: Chromium;
beforeAll(async () => (chromium = await launchChromium()));
afterAll(async () => chromium?.close());

/** Connects by typing the URL; waits for the catalog even where the sidebar is folded away. */
async function connectHere(page: Page, path: string): Promise<void> {
  await page.fill("#endpoint-url", `${worker()}${path}`);
  await page.click("form.connect button[type=submit]");
  await catalogOf(page, `${worker()}${path}`);
  await expect.poll(() => page.locator(".era-modern, .era-legacy").count()).toBeGreaterThan(0);
}

/** The ids of one axe rule's violations (any impact), e.g. `heading-order`. */
async function axeRule(page: Page, rule: string): Promise<string[]> {
  const axe = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
  await page.evaluate(await readFile(axe, "utf8"));
  return page.evaluate(async (id) => {
    const run = (globalThis as unknown as { axe: { run(o: unknown): Promise<unknown> } }).axe.run;
    const result = (await run({ runOnly: [id] })) as {
      violations: { nodes: { target: string[] }[] }[];
    };
    return result.violations.flatMap((v) => v.nodes.map((n) => n.target.join(" ")));
  }, rule);
}

describe("the tool form", () => {
  it("waits for a touch before saying a field is wrong, and leaves untouched optional lists out", async () => {
    const { page, errors, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/everything");
    await select(page, "tool:schedule_meeting");
    expect(await page.locator(".field-error").count()).toBe(0);
    expect(await page.locator(".problems").getAttribute("class")).toBe("problems pending");
    expect(await page.locator(".problems strong").textContent()).toBe("To fill in before sending:");
    await page.fill("#f_title", "ab");
    expect(await page.locator(".field-error").allTextContents()).toEqual([
      "String is too short (2 < 3).",
    ]);
    expect(await page.locator(".problems").getAttribute("class")).toBe("problems");
    // Integers bounded only by the safe-integer range have no bound worth saying.
    expect(await page.locator(".detail").textContent()).not.toContain("9007199254740991");
    expect(await page.locator(".field-hints").allTextContents()).toContain("≥ 0");
    await page.click("#args-tab-json");
    const json = JSON.parse(await page.inputValue("#args-json"));
    expect(Object.keys(json)).not.toContain("agenda");
    expect(json).toMatchObject({ title: "ab", duration_minutes: 30, priority: "normal" });
    await page.click("#args-tab-form");
    await screenshotBoth(page, "pristine-touched-form");
    expect(errors).toEqual([]);
    await close();
  });

  it("shows the hints a server gave and nothing for those it did not", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/everything");
    await select(page, "tool:test_simple_text");
    expect(await page.locator(".annotations").count()).toBe(0);
    await select(page, "tool:schedule_meeting");
    expect(await page.locator(".annotations li").allTextContents()).toEqual([
      "read-only",
      "closed world",
    ]);
    await close();
  });
});

describe("tokens", () => {
  it("opens a link to a tool that needs a token with its form, and says a token may be needed", async () => {
    const link = encodePermalink({
      url: `${worker()}/mcp/notes`,
      era: "auto",
      kind: "tool",
      name: "create_note",
      args: { title: "From a link", body: "Hello" },
      secretHeaders: ["Authorization"],
    });
    const { page, errors, close } = await openPlayground(chromium.browser, `/${link}`);
    // Anonymous callers are not shown this tool: the page says why, and how to get it.
    const missing = page.locator(".missing-item");
    await missing.waitFor();
    expect(await missing.textContent()).toContain(
      "tool create_note is not in this server's catalog for you. You are anonymous",
    );
    expect(await page.locator(".anonymous-note").textContent()).toContain("You are anonymous");
    await screenshotBoth(page, "link-needs-token");
    await missing.getByRole("button", { name: "Add a Bearer token" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("hvalue-0");
    expect(await page.inputValue("#hname-0")).toBe("Authorization");
    await page.keyboard.type(TEST_TOKENS.alice);
    await page.click("form.connect button[type=submit]");
    await page.locator('article.detail[aria-label="tool create_note"]').waitFor();
    expect(await page.inputValue("#f_title")).toBe("From a link");
    expect(await page.locator(".token-hint").count()).toBe(0);
    expect(await page.locator(".anonymous-note").count()).toBe(0);
    // Anonymous again: a tool not marked read-only says it may need a token, a read-only not.
    await page.selectOption("#dev-token", "");
    await connectTo(page, "/mcp/everything");
    await select(page, "tool:test_simple_text");
    expect(await page.locator(".token-hint").textContent()).toContain(
      "You are calling anonymously, and this tool is not marked read-only",
    );
    await select(page, "tool:schedule_meeting");
    expect(await page.locator(".token-hint").count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it("offers an Authorization: Bearer row first when the server wants credentials", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/notes");
    await page.click("form.connect button[aria-expanded]");
    await page.click("text=+ Custom header");
    await page.fill("#hname-1", "X-Trace");
    await page.fill("#hvalue-1", "on");
    await page.fill("#hvalue-0", "Bearer not-a-token");
    await page.click("form.connect button[aria-expanded]");
    await page.click("form.connect button[type=submit]");
    const doctor = page.locator(".doctor");
    await doctor.waitFor();
    await doctor.getByRole("button", { name: "Add a Bearer token" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("hvalue-0");
    expect(await page.inputValue("#hname-0")).toBe("Authorization");
    expect(await page.inputValue("#hname-1")).toBe("X-Trace");
    await close();
  });
});

describe("the hub's catalog", () => {
  it("groups resources by upstream as it does tools, keeps only the groups a search finds, and orders its headings", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectHere(page, "/mcp");
    const notes = page.locator('details.upstream[aria-label="Upstream notes"]');
    await notes.locator("summary").click();
    expect(await notes.locator('[data-key^="resource:"]').count()).toBeGreaterThan(0);
    expect(await notes.locator('[data-key^="tool:"]').count()).toBeGreaterThan(0);
    expect(await axeRule(page, "heading-order")).toEqual([]);
    await page.fill("#catalog-search", "create_note");
    await expect.poll(() => page.locator("details.upstream").count()).toBe(1);
    expect(await page.locator("details.upstream").getAttribute("aria-label")).toBe(
      "Upstream notes",
    );
    await screenshotBoth(page, "hub-search");
    await close();
  });
});

describe("on a phone", () => {
  it("welcomes without pointing to a catalog on the left", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await page.setViewportSize({ width: 390, height: 844 });
    await connectHere(page, "/mcp/everything");
    const welcome = await page.locator(".welcome").textContent();
    expect(welcome).not.toContain("on the left");
    expect(welcome).toContain("in the catalog");
    await screenshot(page, "welcome-390");
    await checkAccessibility(page, "welcome at 390 px");
    await close();
  });
});
