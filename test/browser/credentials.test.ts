import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot, type Chromium } from "./chromium.ts";
import { TEST_TOKENS } from "../support/secrets.ts";
import { catalogOf, checkAccessibility, openPlayground, select, worker } from "./playground.ts";

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

/**
 * Adds a Bearer row and enters `value` in it, once the page has focused it: the page moves the
 * caret to the end of "Bearer " in the next frame, and a fill before that frame would have its
 * selection undone.
 */
async function enterBearer(page: Page, value: string): Promise<void> {
  await page.click("text=+ Bearer token");
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("hvalue-0");
  await page.fill("#hvalue-0", value);
}

async function connected(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator("form.connect button[type=submit]").textContent(), {
      timeout: 20_000,
    })
    .toBe("Reconnect");
  await catalogOf(page);
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
    await enterBearer(page, `Bearer ${TEST_TOKENS.bob}`);
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
    await enterBearer(page, "Bearer typed-for-this-worker");

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

/** The request a permalink URL carries, as JSON (its fragment is base64url). */
function linkPayload(url: string): { headers?: Record<string, string>; secretHeaders?: string[] } {
  const encoded = url.slice(url.indexOf("#request=") + "#request=".length);
  return JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")) as {
    headers?: Record<string, string>;
    secretHeaders?: string[];
  };
}

describe("header values in links to requests", () => {
  it("go only for headers ticked 'in links'; every other header, and any credential, by name", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connected(page);
    await page.click("form.connect button[aria-expanded]");
    // The dev identity's Authorization row is first; then three of the person's own.
    const rows = [
      ["X-Tenant", "acme-tenant"],
      ["X-Region", "eu-west-private"],
      ["X-Auth-Key", "k-9f8e7d6c"],
    ];
    const first = await page.locator(".headers-panel .header-row").count();
    for (const [i, [name, value]] of rows.entries()) {
      await page.click("text=+ Custom header");
      await page.fill(`#hname-${first + i}`, name!);
      await page.fill(`#hvalue-${first + i}`, value!);
    }
    // A name that looks like a credential offers no tick; the others do, unticked.
    expect(await page.locator(`#hshare-${first + 2}`).count()).toBe(0);
    expect(await page.locator("#hshare-0").count()).toBe(0);
    expect(await page.isChecked(`#hshare-${first + 1}`)).toBe(false);
    await page.check(`#hshare-${first}`);
    await checkAccessibility(page, "headers with a shareable mark");
    // Renaming a header takes its mark away: the new name is asked about afresh.
    await page.check(`#hshare-${first + 1}`);
    await page.fill(`#hname-${first + 1}`, "X-Zone");
    expect(await page.isChecked(`#hshare-${first + 1}`)).toBe(false);
    await page.fill(`#hname-${first + 1}`, "X-Region");

    await connect(page, `${worker()}/mcp/everything`);
    await connected(page);
    await select(page, "tool:add_numbers");
    await page.fill("#f_a", "1");
    await page.fill("#f_b", "2");
    await page.click("text=Permalink");
    const link = page.url();
    const payload = linkPayload(link);
    expect(payload.headers).toEqual({ "X-Tenant": "acme-tenant" });
    expect(new Set(payload.secretHeaders)).toEqual(
      new Set(["Authorization", "X-Region", "X-Auth-Key"]),
    );
    for (const secret of ["eu-west-private", "k-9f8e7d6c", TEST_TOKENS.alice])
      expect(decodeURIComponent(link)).not.toContain(secret);
    await close();

    // Whoever opens it gets the shared value, still marked, and the names to fill in.
    const opened = await openPlayground(chromium.browser, `/${link.slice(link.indexOf("#"))}`);
    await opened.page.locator(".banner.info").waitFor();
    await opened.page.click("form.connect button[aria-expanded]");
    const shown = await opened.page.locator(".headers-panel .header-row").evaluateAll((elements) =>
      elements.map((row) => {
        const inputs = [...row.querySelectorAll("input")];
        return [inputs[0]?.value, inputs[1]?.value, inputs[2]?.checked ?? null];
      }),
    );
    expect(shown).toEqual(
      expect.arrayContaining([
        ["X-Tenant", "acme-tenant", true],
        ["X-Region", "", false],
        ["X-Auth-Key", "", null],
      ]),
    );
    await opened.close();
  });
});
