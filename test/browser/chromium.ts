import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

/** Debian's Chromium: the only browser the tests use (never a downloaded one). */
export const CHROMIUM = "/usr/bin/chromium";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Where screenshots go (ignored by git): one per main view, light and dark. */
export const SCREENSHOTS = join(import.meta.dirname, "..", "..", "test-results", "screenshots");

/** A running Chromium with a fresh profile; `close` removes the profile too. */
export type Chromium = { browser: Browser; close(): Promise<void> };

export async function launchChromium(): Promise<Chromium> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const profile = await mkdtemp(join(tmpdir(), "edgemcp-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: FLAGS,
    headless: true,
    viewport: { width: 1280, height: 800 },
  });
  const browser = context.browser();
  if (!browser) {
    await context.close();
    throw new Error("Chromium started without a browser handle.");
  }
  return {
    browser,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** A new page at 1280×800 in the given theme, with page errors collected. */
export async function openPage(
  browser: Browser,
  url: string,
  theme: "light" | "dark" = "light",
): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: theme,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(url);
  return { page, errors, close: () => context.close() };
}

/** Saves a screenshot of the page under test-results/screenshots. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}
