import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot, type Chromium } from "./chromium.ts";
import { TEST_TOKENS } from "../support/secrets.ts";
import { checkAccessibility, openPlayground, worker } from "./playground.ts";

let chromium: Chromium;
beforeAll(async () => (chromium = await launchChromium()));
afterAll(async () => chromium?.close());

/** The same Worker under another origin: a server the page's dev tokens were not given for. */
const other = () => worker().replace("127.0.0.1", "localhost");

/** The Authorization header of every MCP POST the page sends, by origin, in order. */
function watchAuthorization(page: Page): Map<string, (string | undefined)[]> {
  const seen = new Map<string, (string | undefined)[]>();
  page.on("request", async (request) => {
    if (request.method() !== "POST" || !new URL(request.url()).pathname.startsWith("/mcp")) return;
    const origin = new URL(request.url()).origin;
    const headers = await request.allHeaders();
    seen.set(origin, [...(seen.get(origin) ?? []), headers.authorization]);
  });
  return seen;
}

/** Connects to a URL by typing it, and waits until the page is connected or has a diagnosis. */
async function connect(page: Page, url: string): Promise<void> {
  await page.fill("#endpoint-url", url);
  await page.click("form.connect button[type=submit]");
}

async function connected(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator("form.connect button[type=submit]").textContent(), {
      timeout: 20_000,
    })
    .toBe("Reconnect");
  await expect.poll(() => page.locator(".sidebar .entry").count()).toBeGreaterThan(0);
}

/** The Authorization values sent to an origin from the given request on. */
async function sentTo(seen: Map<string, (string | undefined)[]>, origin: string, from = 0) {
  await expect.poll(() => (seen.get(origin) ?? []).length).toBeGreaterThan(from);
  return new Set((seen.get(origin) ?? []).slice(from));
}

describe("credentials scoped to the server they were given for", () => {
  it("keeps the dev identities to this Worker and each origin's headers to that origin", async () => {
    const { page, errors, close } = await openPlayground(chromium.browser);
    const seen = watchAuthorization(page);
    await connected(page);
    expect(await page.inputValue("#dev-token")).toBe(TEST_TOKENS.alice);
    expect(await sentTo(seen, worker())).toEqual(new Set([`Bearer ${TEST_TOKENS.alice}`]));

    // Another origin starts anonymous, and the dev identities are not offered for it.
    await connect(page, `${other()}/mcp/everything`);
    await connected(page);
    expect(await sentTo(seen, other())).toEqual(new Set([undefined]));
    expect(await page.locator("#dev-token").count()).toBe(0);

    // A token entered for it goes to it alone.
    await page.click("form.connect button[aria-expanded]");
    expect(await page.locator("#headers-title").textContent()).toBe(`Headers sent to ${other()}`);
    await page.click("text=+ Bearer token");
    await page.fill("#hvalue-0", `Bearer ${TEST_TOKENS.bob}`);
    let mark = seen.get(other())!.length;
    await page.click("form.connect button[type=submit]");
    await connected(page);
    expect(await sentTo(seen, other(), mark)).toEqual(new Set([`Bearer ${TEST_TOKENS.bob}`]));

    // Each origin gets its own back.
    mark = seen.get(worker())!.length;
    await page.selectOption("#endpoint-pick", "/mcp/everything");
    await connected(page);
    expect(await sentTo(seen, worker(), mark)).toEqual(new Set([`Bearer ${TEST_TOKENS.alice}`]));
    mark = seen.get(other())!.length;
    await connect(page, `${other()}/mcp/everything`);
    await connected(page);
    expect(await sentTo(seen, other(), mark)).toEqual(new Set([`Bearer ${TEST_TOKENS.bob}`]));
    expect(errors).toEqual([]);
    await close();
  });

  it("asks before a token entered for one server goes to another, and sends none unless told to", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    const seen = watchAuthorization(page);
    await connected(page);
    await page.selectOption("#dev-token", "");
    await connected(page);
    await page.click("form.connect button[aria-expanded]");
    await page.click("text=+ Bearer token");
    await page.fill("#hvalue-0", "Bearer typed-for-this-worker");

    await connect(page, `${other()}/mcp/everything`);
    const dialog = page.getByRole("alertdialog");
    await dialog.waitFor();
    expect(await dialog.locator("h2").textContent()).toBe(
      "Send your Authorization to another server?",
    );
    expect(await dialog.textContent()).toContain(`You entered Authorization for ${worker()}`);
    // Not sending is the choice under the keyboard.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      "Connect without it",
    );
    await screenshot(page, "carry-question-light");
    await checkAccessibility(page, "carry question (light)");
    await page.evaluate(() => (document.documentElement.dataset.theme = "dark"));
    await screenshot(page, "carry-question-dark");
    await checkAccessibility(page, "carry question (dark)");
    await page.evaluate(() => (document.documentElement.dataset.theme = "light"));
    await page.keyboard.press("Escape");
    await connected(page);
    expect(await sentTo(seen, other())).toEqual(new Set([undefined]));

    // Asked again next time (nothing was entered for the other origin), and sent when told to.
    await page.selectOption("#endpoint-pick", "/mcp/everything");
    await page.locator(".doctor").waitFor();
    const mark = seen.get(other())!.length;
    await connect(page, `${other()}/mcp/everything`);
    await dialog.waitFor();
    await dialog.getByRole("button", { name: `Send it to ${other()}` }).click();
    await page.locator(".doctor").waitFor();
    expect(await sentTo(seen, other(), mark)).toEqual(new Set(["Bearer typed-for-this-worker"]));
    await close();
  });
});
