import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startThirdParty, type ThirdPartyServer } from "../support/third-party/servers.ts";
import { launchChromium, type Chromium } from "./chromium.ts";
import { catalogOf, checkAccessibility, openPlayground, select } from "./playground.ts";

let chromium: Chromium;
let everything: ThirdPartyServer;
beforeAll(async () => {
  [chromium, everything] = await Promise.all([launchChromium(), startThirdParty("everything")]);
});
afterAll(async () => {
  await Promise.all([chromium?.close(), everything?.stop()]);
});

/** Connects the page to server-everything (a 2025-11-25 server with sessions). */
async function connectToEverything(page: Page): Promise<void> {
  await page.fill("#endpoint-url", everything.url);
  await page.click("form.connect button[type=submit]");
  await catalogOf(page, everything.url);
}

/** The log messages the Logs pane lists, newest first. */
async function logs(page: Page): Promise<string[]> {
  await page.click("#pane-tab-logs");
  return page.locator("ol.logs li.log").allTextContents();
}

describe("the playground and server-everything's 2025 session stream", () => {
  it("answers get-roots-list through the session stream and shows its log messages", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectToEverything(page);
    await page.click("#pane-tab-listen");
    await expect.poll(() => page.locator(".session-stream .badge").textContent()).toBe("open");
    // The server asks for the roots on the session stream soon after initialize, and logs it.
    await expect
      .poll(async () => (await logs(page)).join("\n"))
      .toContain("Roots updated: 1 root(s) received from client");
    await select(page, "tool:get-roots-list");
    await page.click('[data-action="send"]');
    await expect
      .poll(() => page.locator(".call .result").textContent(), { timeout: 20_000 })
      .toContain("URI: file:///workspace");
    await select(page, "tool:toggle-simulated-logging");
    await page.click('[data-action="send"]');
    await expect
      .poll(async () => (await logs(page)).join("\n"))
      .toMatch(/-level message - SessionId/i);
    await page.click("#pane-tab-listen");
    await checkAccessibility(page, "session stream");
    await close();
  });

  it("says before sending that a task-required tool runs as a task, and runs it as one", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectToEverything(page);
    await select(page, "tool:simulate-research-query");
    expect(await page.locator(".task-mode").textContent()).toContain("Runs as a task");
    await page.fill("#f_topic", "tides");
    await page.click('[data-action="send"]');
    await page.locator(".task-card").first().waitFor({ timeout: 20_000 });
    await expect
      .poll(() => page.locator(".task-card .badge").first().textContent(), { timeout: 30_000 })
      .toBe("completed");
    // The result is read with tasks/result once the task completed.
    await expect
      .poll(() => page.locator(".task-card").first().textContent())
      .toContain("Research Report: tides");
    // The call lasted as long as its task (four stages of a second), not its first request's
    // few milliseconds, and its clock stopped with the task.
    const elapsed = async () =>
      parseFloat((await page.locator(".call-status > .muted").first().textContent()) ?? "");
    const took = await elapsed();
    expect(took).toBeGreaterThan(3);
    await page.waitForTimeout(1500);
    expect(await elapsed()).toBe(took);
    await checkAccessibility(page, "task-required tool");
    await close();
  });

  it("checks the session stream and a task-augmented call by the 2025 rules", async () => {
    // The server asks for the roots on the session stream (a GET, which has no body to tell its
    // era), and answers a call sent with `task` with the task it started: both are right in 2025.
    const { page, close } = await openPlayground(chromium.browser);
    await connectToEverything(page);
    await expect
      .poll(async () => (await logs(page)).join("\n"))
      .toContain("Roots updated: 1 root(s) received from client");
    await select(page, "tool:simulate-research-query");
    await page.fill("#f_topic", "tides");
    await page.click('[data-action="send"]');
    await expect
      .poll(() => page.locator(".task-card").first().textContent(), { timeout: 30_000 })
      .toContain("Research Report: tides");
    await page.click("#pane-tab-wire");
    const flagged = page.locator(".exchange-row", { has: page.locator(".badge.bad") });
    expect(await page.locator(".exchange-row", { hasText: "GET" }).count()).toBeGreaterThan(0);
    expect(await flagged.allTextContents()).toEqual([]);
    await close();
  });

  it("shows no task notice for a tool that says nothing about tasks", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectToEverything(page);
    await select(page, "tool:echo");
    expect(await page.locator(".task-mode").count()).toBe(0);
    await close();
  });

  it("subscribes to a resource from its view; its updates show in the Listen pane", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectToEverything(page);
    await select(page, "tool:toggle-subscriber-updates");
    await page.click('[data-action="send"]');
    await expect.poll(() => page.locator(".call-status strong").textContent()).toBe("Done");
    const first = page.locator('.sidebar .entry[data-key^="resource:"]').first();
    await first.click();
    const uri = (await first.getAttribute("data-key"))?.slice("resource:".length) ?? "";
    await page.click("text=Subscribe to updates");
    await page.locator("text=Subscribed: updates arrive in the Listen pane.").waitFor();
    await page.click("#pane-tab-listen");
    await expect
      .poll(() => page.locator(".arrivals").textContent(), { timeout: 20_000 })
      .toContain(`notifications/resources/updated ${uri}`);
    expect(await page.locator(".arrivals").textContent()).toContain("session stream");
    await close();
  });
});
