import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, type Chromium } from "./chromium.ts";
import {
  checkAccessibility,
  connectTo,
  openPlayground,
  screenshotBoth,
  select,
} from "./playground.ts";

let chromium: Chromium;
beforeAll(async () => (chromium = await launchChromium()));
afterAll(async () => chromium?.close());

/** Sends the selected tool as it is filled in and waits for its call to end. */
async function send(page: Page): Promise<void> {
  await page.click('[data-action="send"]');
  await expect
    .poll(() => page.locator(".call-status strong").first().textContent(), { timeout: 20_000 })
    .toBe("Done");
}

/** The log messages the Logs pane lists, newest first. */
async function logLines(page: Page): Promise<string[]> {
  await page.click("#pane-tab-logs");
  return page.locator("ol.logs li.log").allTextContents();
}

describe("the logs pane", () => {
  it("asks a 2026 server for a level with each request, and its messages arrive", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/everything");
    await select(page, "tool:test_logging_tool");
    // No level chosen: the server sends nothing.
    await send(page);
    expect(await logLines(page)).toEqual([]);

    await page.selectOption("#log-level", "info");
    await select(page, "tool:test_tool_with_logging");
    await send(page);
    const lines = await logLines(page);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^info .*tool test_tool_with_logging Tool execution completed$/);
    expect(lines[2]).toContain("Tool execution started");
    expect(await page.locator("#pane-tab-logs .count").textContent()).toBe("3");

    // Above the messages' level, they are filtered at the server; the list shows where the
    // level changed, so the quiet after it reads as the level's doing.
    await page.selectOption("#log-level", "warning");
    await page.selectOption("#log-level", "error");
    await select(page, "tool:test_logging_tool");
    await send(page);
    expect(await logLines(page)).toHaveLength(3);
    const rows = await page.locator("ol.logs li").allTextContents();
    expect(rows).toHaveLength(5); // three messages between the changes to info and to error
    expect(rows[0]).toMatch(/asked for error and above$/);
    expect(rows[1]).toContain("Tool execution completed");
    expect(rows.at(-1)).toMatch(/asked for info and above$/);
    expect(await page.locator("#pane-tab-logs .count").textContent()).toBe("3");
    await screenshotBoth(page, "logs");
    await close();
  });

  it("sends logging/setLevel to a 2025 server once, and its messages arrive", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await page.selectOption("#era", "legacy");
    await connectTo(page, "/mcp/everything");
    expect(await page.locator(".era-legacy").count()).toBeGreaterThan(0);
    await page.click("#pane-tab-logs");
    await page.selectOption("#log-level", "info");
    await select(page, "tool:test_tool_with_logging");
    await send(page);
    await send(page);
    const lines = await logLines(page);
    expect(lines).toHaveLength(6);
    expect(lines.every((l) => l.startsWith("info "))).toBe(true);
    await page.click("#pane-tab-wire");
    const setLevel = page.locator(".exchange-row", { hasText: "logging/setLevel" });
    expect(await setLevel.count()).toBe(1);
    await setLevel.click();
    expect(await page.locator(".exchange-detail").first().textContent()).toMatch(
      /method: "logging\/setLevel".*params: \{1\}level: "info"/,
    );
    await close();
  });
});

describe("sampling", () => {
  it("shows the server's messages and sends the typed reply as the model's answer", async () => {
    const { page, errors, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/everything");
    await select(page, "tool:test_sampling");
    await page.fill("#f_prompt", "What is the capital of France?");
    await page.click('[data-action="send"]');
    const card = page.locator(".input-card");
    await card.waitFor();
    expect(await card.locator("h4").textContent()).toBe("The server asks your model for a reply");
    expect(await card.locator(".messages").textContent()).toContain(
      "user What is the capital of France?",
    );
    const reply = card.locator("button", { hasText: "Send reply" });
    expect(await reply.isDisabled()).toBe(true);
    await card.locator("textarea").fill("Paris.");
    await screenshotBoth(page, "sampling");
    await reply.click();
    await expect
      .poll(() => page.locator(".call .blocks").textContent(), { timeout: 20_000 })
      .toContain("LLM response: Paris.");
    expect(await page.locator(".input-card").count()).toBe(0);
    expect(await page.locator(".round").first().textContent()).toContain(
      "asking for answer (sampling/createMessage)",
    );
    expect(errors).toEqual([]);
    await close();
  });
});

describe("the handle wallet", () => {
  it("keeps a handle a tool returned and offers it in a later form that takes one", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/analytics");
    await select(page, "tool:analysis_summary");
    expect(await page.locator(".wallet-hint").count()).toBe(0);

    await select(page, "tool:open_analysis");
    await send(page);
    const structured = await page.locator(".structured").textContent();
    const handle = /"?analysis"?:\s*"?([A-Za-z0-9_\-.~+/=:]{16,})/.exec(structured ?? "")?.[1];
    expect(handle).toBeDefined();
    await page.click("#pane-tab-server");
    expect(await page.locator("ul.wallet").textContent()).toContain("open_analysis");

    await select(page, "tool:analysis_summary");
    expect(await page.locator(".wallet-hint").textContent()).toContain(
      "1 handle from earlier results",
    );
    const offered = await page
      .locator("#f_analysis")
      .evaluate((input: HTMLInputElement) =>
        [...(input.list?.options ?? [])].map((o) => [o.value, o.label]),
      );
    expect(offered).toEqual([[handle, "analysis from open_analysis"]]);
    await checkAccessibility(page, "wallet offer");

    // The offered handle works: the summary of the analysis it pins comes back.
    await page.fill("#f_analysis", handle ?? "");
    await send(page);
    expect(await page.locator(".call .result").first().textContent()).not.toContain("isError");
    expect(await page.locator(".structured h4").textContent()).toContain(
      "matches the output schema",
    );
    await close();
  });
});
