import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, type Chromium } from "./chromium.ts";
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

describe("live panes", () => {
  it("watches a listen notification arrive after creating a note, and the catalog follows", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/notes");
    const before = await page.locator(".sidebar .entry").count();
    await page.click("#pane-tab-listen");
    await page.click("text=Open listen stream");
    await expect.poll(() => page.locator(".stream .badge").first().textContent()).toBe("open");
    await select(page, "tool:create_note");
    const title = `Browser note ${Date.now()}`;
    await page.fill("#f_title", title);
    await page.fill("#f_body", "Written by the **browser** test.");
    await page.click("text=+ Add item");
    await page.fill("#f_tags_0", "e2e");
    await page.click('[data-action="send"]');
    await expect
      .poll(() => page.locator(".arrivals").textContent(), { timeout: 15_000 })
      .toContain("notifications/resources/list_changed");
    await expect
      .poll(() => page.locator(".sidebar .entry").count(), { timeout: 15_000 })
      .toBeGreaterThan(before);
    await screenshotBoth(page, "listen");
    await page.locator(".call .resource-link button").click();
    await expect.poll(() => page.locator(".call .result").textContent()).toContain(title);
    await close();
  });

  it("offers no listen stream on a 2025 connection, and says why", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await page.selectOption("#era", "legacy");
    await connectTo(page, "/mcp/notes");
    await page.click("#pane-tab-listen");
    expect(await page.locator(".banner.warn").textContent()).toContain(
      "Listen streams are a 2026-07-28 feature",
    );
    expect(await page.locator("text=Open listen stream").isDisabled()).toBe(true);
    await close();
  });

  it("opens a task, follows it to the end, and shows its result", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/ops");
    await select(page, "tool:scan_repo");
    await page.fill("#f_repo", "edgemcp");
    await page.fill("#f_files", "14");
    await page.fill("#f_file_ms", "50");
    await page.click('[data-action="send"]');
    await page.locator(".task-card").first().waitFor();
    await expect
      .poll(() => page.locator(".task-card .badge").first().textContent(), { timeout: 30_000 })
      .toBe("completed");
    expect(await page.locator(".task-card").first().textContent()).toContain("unchecked input");
    await page.click("#pane-tab-tasks");
    await expect.poll(() => page.locator(".panes .task-card").count()).toBe(1);
    await screenshotBoth(page, "tasks");
    await close();
  });

  it("shows the wire: routing headers, SSE events with times, every message checked, copy as curl", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/everything");
    await select(page, "tool:test_tool_with_progress");
    await page.click('[data-action="send"]');
    await expect.poll(() => page.locator(".call-status strong").textContent()).toBe("Done");
    await page.click("#pane-tab-wire");
    const row = page.locator(".exchange-row", { hasText: "tools/call" }).first();
    await row.click();
    const detail = page.locator(".exchange-detail").first();
    expect(await detail.locator("tr.routing th").allTextContents()).toEqual(
      expect.arrayContaining(["mcp-method", "mcp-name", "mcp-protocol-version"]),
    );
    await expect.poll(() => detail.locator(".frame").count()).toBeGreaterThanOrEqual(4);
    expect(await detail.locator(".findings .error").count()).toBe(0);
    expect(await detail.locator(".waterfall").textContent()).toContain("first byte");
    await screenshotBoth(page, "wire");
    await detail.locator("text=Copy as curl / fetch").click();
    const curl = await page.locator(".copy-text").textContent();
    expect(curl).toContain(`curl -sS -N -X POST '${worker()}/mcp/everything'`);
    expect(curl).toContain("mcp-name: test_tool_with_progress");
    await checkAccessibility(page, "copy dialog");
    await close();
  });

  it("replays a permalink: the request opens filled in, ready to send", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/everything");
    await select(page, "tool:add_numbers");
    await page.fill("#f_a", "20");
    await page.fill("#f_b", "22");
    await page.click("text=Permalink");
    const link = page.url();
    expect(link).toContain("#request=");
    await close();
    const second = await openPlayground(chromium.browser, `/${link.slice(link.indexOf("#"))}`);
    await second.page.locator(".banner.info").waitFor();
    expect(await second.page.locator(".banner.info").textContent()).toContain("ready to send");
    expect(await second.page.inputValue("#f_a")).toBe("20");
    await second.page.click('[data-action="send"]');
    await expect.poll(() => second.page.locator(".structured").textContent()).toContain("42");
    await second.close();
  });

  it("keeps a history in the browser that replays a call", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/everything");
    await select(page, "tool:add_numbers");
    await page.fill("#f_a", "1");
    await page.fill("#f_b", "2");
    await page.click('[data-action="send"]');
    await expect.poll(() => page.locator(".structured").textContent()).toContain("3");
    await page.click("#pane-tab-history");
    const entry = page.locator(".history-row", { hasText: "add_numbers" }).first();
    await entry.locator("text=Replay").click();
    await expect
      .poll(() => page.locator(".history-row", { hasText: "add_numbers" }).count())
      .toBeGreaterThanOrEqual(2);
    await checkAccessibility(page, "history");
    await close();
  });
});
