import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, type Chromium } from "./chromium.ts";
import { connectTo, openPlayground, select, worker } from "./playground.ts";

let chromium: Chromium;
beforeAll(async () => (chromium = await launchChromium()));
afterAll(async () => chromium?.close());

// deploy_release's version pattern as its tools/list writes it in JSON.
const VERSION = String.raw`^v?\\d+\\.\\d+\\.\\d+$`;
// A pattern that backtracks without end on a long near-miss.
const EVIL = "^(a+)+$";

describe("a server's input pattern in the playground", () => {
  it("never freezes the tab: a pattern that backtracks without end leaves the value unchecked, and says so", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    // The ops server, as a hostile server would describe it: deploy_release's version pattern
    // swapped for one that backtracks.
    await page.route(`${worker()}/mcp/ops`, async (route) => {
      if (!route.request().postData()?.includes('"tools/list"')) return route.continue();
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replaceAll(VERSION, EVIL) });
    });
    await connectTo(page, "/mcp/ops");
    await select(page, "tool:deploy_release");
    expect(await page.locator("article.detail").textContent()).toContain(EVIL);
    await page.fill("#f_version", `${"a".repeat(40)}!`);
    // A frozen tab answers nothing (this regex runs for hours on the page's thread).
    const alive = await Promise.race([
      page.evaluate(() => "answers"),
      new Promise<string>((resolve) => setTimeout(() => resolve("frozen"), 15_000)),
    ]);
    expect(alive).toBe("answers");
    await expect
      .poll(() => page.locator("article.detail").textContent(), { timeout: 20_000 })
      .toContain("Not checked here: the server's pattern took over 1 s on this value");
    // A value the pattern refuses is reported once its test answers; one it takes is not.
    await page.fill("#f_version", "aab");
    await expect
      .poll(() => page.locator("article.detail").textContent(), { timeout: 20_000 })
      .toContain("String does not match pattern.");
    await page.fill("#f_version", "aaaa");
    await expect
      .poll(() => page.locator("article.detail").textContent(), { timeout: 20_000 })
      .not.toContain("String does not match pattern.");
    await close();
  });
});
