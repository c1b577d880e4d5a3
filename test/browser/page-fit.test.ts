import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, type Chromium } from "./chromium.ts";
import { connectTo, openPlayground, select } from "./playground.ts";

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
