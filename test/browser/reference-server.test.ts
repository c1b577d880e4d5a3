import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startThirdParty, type ThirdPartyServer } from "../support/third-party/servers.ts";
import { launchChromium, type Chromium } from "./chromium.ts";
import {
  catalogOf,
  checkAccessibility,
  connectTo,
  openPlayground,
  screenshotBoth,
  select,
} from "./playground.ts";

// The official reference server in Streamable HTTP mode: it answers CORS with `*`, so the page
// reaches it directly, as it would any server on the internet.
let chromium: Chromium;
let server: ThirdPartyServer;
beforeAll(async () => {
  server = await startThirdParty("everything");
  chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

async function connectToReference(page: Page): Promise<void> {
  await page.fill("#endpoint-url", server.url);
  await page.click("form.connect button[type=submit]");
  await catalogOf(page, server.url);
}

/**
 * Starts server-everything's research task on "python": an ambiguous topic makes the task ask
 * which reading is meant (input_required); a plain one runs its stages, a second each.
 */
async function researchPython(page: Page, { ambiguous }: { ambiguous: boolean }): Promise<void> {
  await select(page, "tool:simulate-research-query");
  await page.fill("#f_topic", "python");
  await page.setChecked("#f_ambiguous", ambiguous);
  await page.click('[data-action="send"]');
}

/** The text of the latest call's status line, once it is no longer running. */
async function ended(page: Page): Promise<string | null> {
  await expect
    .poll(() => page.locator(".call-status strong").first().textContent(), { timeout: 30_000 })
    .not.toBe("Running");
  return page.locator(".call-status strong").first().textContent();
}

describe("the playground against @modelcontextprotocol/server-everything", () => {
  it("connects in the 2025 era, lists its catalog and calls echo", async () => {
    const { page, errors, close } = await openPlayground(chromium.browser);
    await connectToReference(page);
    expect(await page.locator(".era-legacy").count()).toBeGreaterThan(0);
    expect(await page.locator(".doctor").count()).toBe(0);
    for (const key of [
      "tool:echo",
      "tool:get-sum",
      "tool:trigger-long-running-operation",
      "tool:trigger-elicitation-request",
      "tool:trigger-sampling-request",
    ])
      expect(await page.locator(`[data-key="${key}"]`).count(), key).toBe(1);
    expect(await page.locator('[data-key^="prompt:"]').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-key^="resource:"]').count()).toBeGreaterThan(0);
    await select(page, "tool:echo");
    await page.fill("#f_message", "hello from the page");
    await page.click('[data-action="send"]');
    expect(await ended(page)).toBe("Done");
    expect(await page.locator(".call .blocks").textContent()).toContain(
      "Echo: hello from the page",
    );
    await screenshotBoth(page, "reference-echo");
    // Auto era asks for 2026-07-28 first: the server refuses that probe with a 400 (no 2025
    // session yet), which Chromium logs; the page then speaks 2025. Nothing else went wrong.
    expect(errors).toEqual([
      "Failed to load resource: the server responded with a status of 400 (Bad Request)",
    ]);
    await close();
  });

  it("shows the long-running operation's progress and cancels it", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectToReference(page);
    await select(page, "tool:trigger-long-running-operation");
    await page.fill("#f_duration", "30");
    await page.fill("#f_steps", "30");
    await page.click('[data-action="send"]');
    await expect
      .poll(() => page.locator(".progress-line").textContent(), { timeout: 20_000 })
      .toMatch(/^[1-9]\d* \/ 30/);
    await page.click(".call-status button.danger");
    expect(await ended(page)).toBe("Cancelled");
    // The cancellation reached the server: its notification is on the wire.
    await page.click("#pane-tab-wire");
    await expect
      .poll(() => page.locator(".exchange-row", { hasText: "notifications/cancelled" }).count())
      .toBeGreaterThan(0);
    await close();
  });

  it("answers the server's elicitation and sampling requests", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectToReference(page);
    await select(page, "tool:trigger-elicitation-request");
    await page.click('[data-action="send"]');
    const card = page.locator(".input-card");
    await card.waitFor({ timeout: 20_000 });
    expect(await card.textContent()).toContain("Please provide inputs for the following fields");
    await card.getByLabel("String", { exact: false }).first().fill("Ada Lovelace");
    await checkAccessibility(page, "reference elicitation");
    await card.locator("button", { hasText: "Accept" }).click();
    expect(await ended(page)).toBe("Done");
    expect(await page.locator(".call .blocks").textContent()).toContain("Ada Lovelace");

    await select(page, "tool:trigger-sampling-request");
    await page.fill("#f_prompt", "Name a prime number.");
    await page.click('[data-action="send"]');
    const sampling = page.locator(".input-card");
    await sampling.waitFor({ timeout: 20_000 });
    expect(await sampling.locator(".messages").textContent()).toContain("Name a prime number.");
    await sampling.locator("textarea").fill("Seven.");
    await sampling.locator("button", { hasText: "Send reply" }).click();
    expect(await ended(page)).toBe("Done");
    expect(await page.locator(".call .blocks").textContent()).toContain("Seven.");
    await close();
  });

  it("answers the elicitation a task asks for on its tasks/result stream", async () => {
    // The tool runs only as a task; an ambiguous topic makes it ask which reading is meant
    // (input_required), on the stream of the tasks/result request the page then sends.
    const { page, close } = await openPlayground(chromium.browser);
    await connectToReference(page);
    await researchPython(page, { ambiguous: true });
    const card = page.locator(".call .input-card");
    await card.waitFor({ timeout: 20_000 });
    expect(await card.textContent()).toContain('The research query "python"');
    await card.locator("select").selectOption({ label: "Python snake species" });
    await checkAccessibility(page, "a task's elicitation");
    await card.locator("button", { hasText: "Accept" }).click();
    await expect
      .poll(() => page.locator(".call .task-card").textContent(), { timeout: 30_000 })
      .toContain("Clarification: snake");
    expect(await page.locator(".call .task-card .badge").first().textContent()).toBe("completed");
    await close();
  });

  it("connecting elsewhere drops the question a task was waiting on, and stops following its tasks", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    const polls: number[] = [];
    page.on("request", (request) => {
      if (request.url() === server.url && /"tasks\/get"/.test(request.postData() ?? ""))
        polls.push(Date.now());
    });
    await connectToReference(page);
    // A task that asks which reading is meant, and waits: the banner says so.
    await researchPython(page, { ambiguous: true });
    await page.locator(".call .input-card").waitFor({ timeout: 20_000 });
    expect(await page.locator(".banner.warn").textContent()).toContain("waiting for your answer");
    // A second task that runs its stages (a second each), polled at the 1 s it asks for.
    await researchPython(page, { ambiguous: false });
    await expect.poll(() => polls.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);

    const switched = Date.now();
    await connectTo(page, "/mcp");
    await page.waitForTimeout(Math.max(0, switched + 6_500 - Date.now()));
    // Each task may send the poll that was due when the page switched (its status then ends
    // the following); a task still followed would be polled every second to the end.
    expect(polls.filter((at) => at >= switched + 2_500)).toEqual([]);
    expect(await page.locator(".banner.warn", { hasText: "waiting for your answer" }).count()).toBe(
      0,
    );
    await page.click("#pane-tab-tasks");
    expect(await page.locator(".pane-body").textContent()).not.toContain("simulate-research-query");
    await close();
  });

  it("reads a binary resource: its size in bytes, and a link that saves it", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectToReference(page);
    await select(page, "template:demo://resource/dynamic/blob/{resourceId}");
    await page.locator("article.detail .args input").first().fill("7");
    await page.keyboard.press("Control+Enter");
    expect(await ended(page)).toBe("Done");
    const embedded = page.locator(".call .embedded").last();
    const save = embedded.getByRole("link", { name: "Save as 7" });
    const [download] = await Promise.all([page.waitForEvent("download"), save.click()]);
    expect(download.suggestedFilename()).toMatch(/^7/);
    const bytes = await readFile(await download.path());
    expect(bytes.toString("utf8")).toMatch(/^Resource 7: This is a base64 blob created at /);
    expect(await embedded.textContent()).toContain(`Binary, ${bytes.length} bytes`);
    await checkAccessibility(page, "a binary resource");
    await close();
  });

  it("tells a server of the older HTTP+SSE transport from a wrong path", async () => {
    // The same server in its SSE mode: POST /sse is a 404, GET /sse an event stream that
    // starts with the endpoint event.
    const sse = await startThirdParty("everythingSse");
    try {
      const { page, close } = await openPlayground(chromium.browser);
      await page.fill("#endpoint-url", sse.url);
      await page.click("form.connect button[type=submit]");
      const doctor = page.locator(".doctor");
      await expect
        .poll(() => doctor.locator("#doctor-title").textContent(), { timeout: 30_000 })
        .toBe("This server speaks HTTP+SSE, the transport before Streamable HTTP");
      expect(await doctor.textContent()).toContain("Streamable HTTP only");
      expect(await doctor.textContent()).not.toContain("Endpoints that answer here");
      await checkAccessibility(page, "doctor on an HTTP+SSE server");
      // A wrong path on that server: /mcp is offered as a guess, since nothing tried it (and
      // it answers 404 too).
      const wrong = sse.url.replace(/\/sse$/, "/nope");
      await page.fill("#endpoint-url", wrong);
      await page.click("form.connect button[type=submit]");
      await expect
        .poll(() => doctor.locator("#doctor-title").textContent(), { timeout: 30_000 })
        .toBe("Nothing answers MCP at this path (404)");
      expect(await doctor.locator("h3").allTextContents()).toContain("Worth trying");
      expect(await doctor.textContent()).not.toContain("Endpoints that answer here");
      await close();
    } finally {
      await sse.stop();
    }
  });

  it("shows the pages a -32042 error asks the user to open, as links", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectToReference(page);
    await select(page, "tool:trigger-url-elicitation");
    await page.fill("#f_url", "https://example.com/verify");
    await page.check("#f_errorPath");
    await page.click('[data-action="send"]');
    expect(await ended(page)).toBe("Failed");
    const error = page.locator(".call .banner.error");
    expect(await error.textContent()).toContain("JSON-RPC error -32042");
    const wanted = error.locator(".url-elicitations li");
    expect(await wanted.count()).toBe(1);
    // The server's error names a page of its own, whatever the arguments said.
    expect(await wanted.textContent()).toContain("Open this link to satisfy the prerequisite");
    const link = wanted.getByRole("link");
    expect(await link.getAttribute("href")).toMatch(/^https:\/\/modelcontextprotocol\.io/);
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
    await checkAccessibility(page, "a -32042 error");
    await close();
  });
});
