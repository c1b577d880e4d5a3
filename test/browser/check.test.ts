import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckReport } from "../../shared/check/report.ts";
import { fakeServer } from "../check/fake-server.ts";
import { runCli } from "../cli/cli.ts";
import { serveFetch, type LoopbackServer } from "../interop/support/http.ts";
import { launchChromium, type Chromium } from "./chromium.ts";
import { checkAccessibility, openPlayground, screenshotBoth, worker } from "./playground.ts";

let chromium: Chromium;
let broken: LoopbackServer;
beforeAll(async () => {
  chromium = await launchChromium();
  const handle = fakeServer("ignoresHeaders", "acceptsBadCursor");
  broken = await serveFetch((request) => handle(request.url, request));
});
afterAll(async () => {
  await chromium?.close();
  await broken?.close();
});

type Row = { id: string; status: string; title: string; detail?: string; fix?: string };

/** Connects the page to `url`, opens "Check this server" and waits for the report. */
async function checkFromPage(page: Page, url: string): Promise<void> {
  await page.fill("#endpoint-url", url);
  await page.click("form.connect button[type=submit]");
  await page.locator(".era-modern, .era-legacy").first().waitFor();
  await page.click("#pane-tab-server");
  await page.click(".panes >> text=Check this server");
  await page.locator(".check-summary").waitFor({ timeout: 45_000 });
}

/** The report as the page shows it: one row per check, in order. */
function rowsOnPage(page: Page): Promise<Row[]> {
  return page.locator("li.check").evaluateAll((items) =>
    items.map((li) => {
      const text = (selector: string) => li.querySelector(selector)?.textContent ?? undefined;
      const fix = text(".check-fix")?.replace(/^What to fix: /, "");
      return {
        id: li.getAttribute("data-check") ?? "",
        status: text(".check-status") ?? "",
        title: text(".check-title") ?? "",
        ...(text(".check-detail") ? { detail: text(".check-detail") } : {}),
        ...(fix ? { fix } : {}),
      };
    }),
  );
}

/** The CLI's report for the same server, in the page's words (FAIL is the CLI's word too). */
async function rowsOfCli(url: string): Promise<Row[]> {
  const { stdout } = await runCli(["check", url, "--json"]);
  const report = JSON.parse(stdout) as CheckReport;
  return report.checks.map((c) => ({
    id: c.id,
    status: c.status === "fail" ? "FAIL" : c.status,
    title: c.title,
    ...(c.detail ? { detail: c.detail } : {}),
    ...(c.fix ? { fix: c.fix } : {}),
  }));
}

// A browser sets its own Origin, so the CORS group runs only from the CLI (`--origin`); every
// other check must come out the same, word for word, but for the count of messages seen, which
// includes the CLI's CORS probe.
const withoutCors = (rows: Row[]) =>
  rows
    .filter((r) => !r.id.startsWith("cors."))
    .map((r) => ({ ...r, title: r.title.replace(/ \(\d+ seen\)$/, " (n seen)") }));

describe("check this server", () => {
  it("runs the shared checks from the page and shows what the CLI prints for the Worker", async () => {
    const url = `${worker()}/mcp/everything`;
    const { page, errors, close } = await openPlayground(chromium.browser);
    await checkFromPage(page, url);
    expect(await page.locator(".check-summary").textContent()).toContain("No check failed.");
    expect(await page.locator(".check-summary").textContent()).toContain("edgemcp-everything");
    const shown = await rowsOnPage(page);
    expect(shown.length).toBeGreaterThan(20);
    expect(withoutCors(shown)).toEqual(withoutCors(await rowsOfCli(url)));
    expect(shown.filter((r) => r.id.startsWith("cors.")).map((r) => r.status)).toEqual([
      "skip",
      "skip",
    ]);
    await checkAccessibility(page, "check");
    // The console lists the refusals the checks asked for (HTTP 400, 404); nothing else.
    expect(errors.filter((e) => !/^Failed to load resource: .* (400|404) /.test(e))).toEqual([]);
    await close();
  });

  it("shows a broken server's failures with what to fix, as the CLI does", async () => {
    const url = `${broken.origin}/mcp`;
    const { page, close } = await openPlayground(chromium.browser);
    await checkFromPage(page, url);
    expect(await page.locator(".check-summary").textContent()).toMatch(/\d+ checks? failed\./);
    const mismatch = page.locator('[data-check="headers.method-mismatch"]');
    expect(await mismatch.locator(".check-status").textContent()).toBe("FAIL");
    expect(await mismatch.locator(".check-detail").textContent()).toBe(
      "expected HTTP 400 with error -32020, got HTTP 200 with a result",
    );
    expect(await mismatch.locator(".check-fix").textContent()).toContain("-32020");
    const cursor = page.locator('[data-check="lists.cursor-invalid"]');
    expect(await cursor.locator(".check-status").textContent()).toBe("warn");
    expect(withoutCors(await rowsOnPage(page))).toEqual(withoutCors(await rowsOfCli(url)));

    await page.check("text=Only failures and warnings");
    const statuses = await page.locator("li.check .check-status").allTextContents();
    expect(new Set(statuses)).toEqual(new Set(["FAIL", "warn"]));
    await screenshotBoth(page, "check");
    await close();
  });

  it("is in the command palette and copies the same check as an edgemcp command", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await page.locator(".era-modern, .era-legacy").first().waitFor();
    await page.keyboard.press("Control+k");
    await page.locator("#palette-input").fill("Check this server");
    // Enter runs the highlighted match: wait until it is this command.
    await expect
      .poll(() => page.locator("#palette-list li.active").textContent())
      .toContain("Check this server");
    await page.keyboard.press("Enter");
    await page.locator(".check-summary").waitFor({ timeout: 45_000 });
    expect(await page.locator("#check-title").textContent()).toBe("Check this server");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.click("text=Copy as edgemcp check");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    // The page acts as the Worker's first dev token: the command reads it from the environment.
    expect(copied).toMatch(
      /^npx edgemcp check 'http:\/\/127\.0\.0\.1:\d+\/mcp' -H "Authorization: \$MCP_AUTHORIZATION"$/,
    );
    expect(copied).not.toContain("Bearer");
    await close();
  });
});
