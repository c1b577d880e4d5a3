import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";
import { expect, inject } from "vitest";
import { openPage, screenshot } from "./chromium.ts";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** The Worker's base URL for this run. */
export const worker = () => inject("workerUrl");

/** Opens the playground (it connects to the hub by itself) and waits for its catalog. */
export async function openPlayground(
  browser: Browser,
  path = "/",
  theme: "light" | "dark" = "light",
) {
  const opened = await openPage(browser, `${worker()}${path}`, theme);
  return opened;
}

/** How long a test waits for a connection's catalog. */
const CONNECT_TIMEOUT_MS = 45_000;

/**
 * Waits for the catalog of `url` (by default the URL in the connection bar) to show an entry,
 * folded away or not. The page names the endpoint its catalog belongs to, so a catalog still
 * on screen from an earlier connection (the hub's, which the page connects to by itself) does
 * not count. A connection is an initialize or discovery and four lists: on a loaded machine
 * that can take longer than Playwright's 30 s.
 */
export async function catalogOf(page: Page, url?: string): Promise<void> {
  const endpoint = url ?? (await page.inputValue("#endpoint-url")).trim();
  await expect
    .poll(() => page.locator(`.sidebar[data-endpoint="${endpoint}"] .entry`).count(), {
      timeout: CONNECT_TIMEOUT_MS,
    })
    .toBeGreaterThan(0);
}

/** Connects to an endpoint of this Worker by typing its URL, and waits for its catalog. */
export async function connectTo(page: Page, path: string): Promise<void> {
  const url = `${worker()}${path}`;
  await page.fill("#endpoint-url", url);
  await page.click("form.connect button[type=submit]");
  await catalogOf(page, url);
  await expect.poll(() => page.locator(".era-modern, .era-legacy").count()).toBeGreaterThan(0);
}

/** Selects a catalog entry by its key (`tool:name`, `template:uri`, ...). */
export async function select(page: Page, key: string): Promise<void> {
  const entry = page.locator(`[data-key="${key}"]`);
  if (!(await entry.isVisible())) {
    await page.fill("#catalog-search", key.split(":").slice(1).join(":"));
  }
  await entry.click();
  await page.locator("article.detail").waitFor();
}

/** The text of the call shown last, once it has ended (done, failed or refused). */
export async function endedCall(page: Page): Promise<string> {
  await expect
    .poll(() => page.locator(".call-status strong").first().textContent(), { timeout: 30_000 })
    .toMatch(/Done|Failed|Error/);
  return (await page.locator(".call").first().textContent()) ?? "";
}

/** Runs axe-core on the page; serious and critical violations fail the test, listed by rule. */
export async function checkAccessibility(page: Page, view: string): Promise<void> {
  // Evaluated through the DevTools protocol, so the page's CSP (no inline scripts) still holds.
  await page.evaluate(await readFile(AXE, "utf8"));
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(): Promise<{
            violations: {
              id: string;
              impact: string;
              help: string;
              nodes: { target: string[] }[];
            }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run();
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map(
        (v) =>
          `${v.id} (${v.impact}): ${v.help} at ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(" "))
            .join(", ")}`,
      );
  });
  expect(violations, `accessibility of the ${view} view`).toEqual([]);
}

/** Screenshots a view in both themes (the page's theme toggle), then restores the first. */
export async function screenshotBoth(page: Page, name: string): Promise<void> {
  const dark = await page.evaluate(() => document.documentElement.dataset.theme === "dark");
  await screenshot(page, `${name}-${dark ? "dark" : "light"}`);
  await page.click('[aria-label^="Switch to"]');
  await screenshot(page, `${name}-${dark ? "light" : "dark"}`);
  await checkAccessibility(page, `${name} (${dark ? "light" : "dark"})`);
  await page.click('[aria-label^="Switch to"]');
}
