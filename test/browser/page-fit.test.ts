import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, type Chromium } from "./chromium.ts";
import { TEST_TOKENS } from "../support/secrets.ts";
import {
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

describe("the page on a short screen", () => {
  it("keeps the connection bar in view after a call when the Server pane is taller than the window", async () => {
    const { page, errors, close } = await openPlayground(chromium.browser);
    await page.setViewportSize({ width: 1366, height: 650 });
    await connectTo(page, "/mcp/everything");
    await page.click("#pane-tab-server");
    // The pane's content (facts, capabilities, roots with their hidden labels) runs past the
    // window, inside its own scroll box.
    const pane = await page
      .locator("#pane-body")
      .evaluate((e) => ({ scroll: e.scrollHeight, client: e.clientHeight }));
    expect(pane.scroll).toBeGreaterThan(pane.client);
    await select(page, "tool:test_simple_text");
    await page.click('[data-action="send"]');
    await expect.poll(() => page.locator(".call-status strong").first().textContent()).toBe("Done");
    const fit = await page.evaluate(() => ({
      scrollY: window.scrollY,
      documentHeight: document.documentElement.scrollHeight,
      windowHeight: window.innerHeight,
      barTop: document.querySelector(".topbar")!.getBoundingClientRect().top,
    }));
    expect(fit).toEqual({ scrollY: 0, documentHeight: 650, windowHeight: 650, barTop: 0 });
    expect(await page.locator("#endpoint-url").isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });
});

/** The connection bar's controls in order, each named by its id or text, with its box. */
function barControls(page: Page) {
  return page.locator("form.connect").evaluate((form) =>
    [...form.querySelectorAll("input, select, button")].map((control) => {
      const { top, left, right } = control.getBoundingClientRect();
      return { name: control.id || control.textContent, top, left, right };
    }),
  );
}

/** How far the page reaches past the window's width, in pixels (0 when it fits). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * Expects the bar's controls, with `picker` in the middle, on one row inside a 1280 px window
 * (their tops within 4 px).
 */
async function expectOneRow(page: Page, picker: "dev-token" | "route"): Promise<void> {
  const controls = await barControls(page);
  expect(controls.map((c) => c.name)).toEqual([
    "endpoint-pick",
    "endpoint-url",
    "era",
    picker,
    "Headers (1)",
    "Reconnect",
    "Disconnect",
  ]);
  const tops = controls.map((c) => c.top);
  expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(4);
  expect(Math.max(...controls.map((c) => c.right))).toBeLessThanOrEqual(1280);
}

describe("the connection bar's width", () => {
  it("holds every control on one row at 1280 px when connected as a dev identity to this Worker", async () => {
    const { page, errors, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/notes");
    expect(await page.inputValue("#dev-token")).toBe(TEST_TOKENS.alice);
    // This Worker's own endpoint: no route to choose (it is always direct), a dev identity.
    await expectOneRow(page, "dev-token");
    // The heading still shows the product's name beside its logo.
    expect(await page.locator(".brand h1").innerText()).toBe("edgemcp");
    // The row still shows the whole URL.
    const url = await page
      .locator("#endpoint-url")
      .evaluate((e) => ({ text: e.scrollWidth, box: e.clientWidth }));
    expect(url.text).toBeLessThanOrEqual(url.box);
    await screenshotBoth(page, "connection-bar");
    // Another origin's URL: the route picker takes the dev identity's place, on the same row.
    await page.fill("#endpoint-url", "https://mcp.example.com/mcp");
    await expectOneRow(page, "route");
    await page.fill("#endpoint-url", `${worker()}/mcp/notes`);
    await checkAccessibility(page, "connection bar");
    expect(errors).toEqual([]);
    await close();
  });

  it("wraps inside the window on a small laptop and a phone", async () => {
    const { page, errors, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/notes");
    for (const width of [1024, 390]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await overflow(page), `${width} px`).toBe(0);
      for (const control of await barControls(page)) {
        expect(control.left, `${control.name} at ${width} px`).toBeGreaterThanOrEqual(0);
        expect(control.right, `${control.name} at ${width} px`).toBeLessThanOrEqual(width);
      }
    }
    expect(errors).toEqual([]);
    await close();
  });
});
