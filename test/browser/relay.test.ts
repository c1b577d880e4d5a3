import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startThirdParty, type ThirdPartyServer } from "../support/third-party/servers.ts";
import { launchChromium, type Chromium } from "./chromium.ts";
import { checkAccessibility, openPlayground, select } from "./playground.ts";

let chromium: Chromium;
// The official SDK v1's example server: it sends no CORS headers at all.
let sdk: ThirdPartyServer;
// The official reference server, reached through the relay to call a tool with progress.
let everything: ThirdPartyServer;
// A server without CORS that asks every caller for credentials (401, as a protected server does).
let guarded: Server;
let guardedUrl: string;

beforeAll(async () => {
  guarded = createServer((request, response) => {
    request.resume();
    response.writeHead(401, {
      "WWW-Authenticate": 'Bearer error="invalid_request", error_description="No token"',
      "Content-Type": "application/json",
    });
    response.end(JSON.stringify({ error: "invalid_request" }));
  });
  await new Promise<void>((resolve) => guarded.listen(0, "127.0.0.1", resolve));
  guardedUrl = `http://127.0.0.1:${(guarded.address() as AddressInfo).port}/mcp`;
  [chromium, sdk, everything] = await Promise.all([
    launchChromium(),
    startThirdParty("sdkSimple"),
    startThirdParty("everything"),
  ]);
});

afterAll(async () => {
  guarded?.close();
  await chromium?.close();
  await sdk?.stop();
  await everything?.stop();
});

type Page = Awaited<ReturnType<typeof openPlayground>>["page"];

async function connectVia(page: Page, url: string, route: "auto" | "direct" | "relay") {
  // The route picker shows once the URL is another origin's (this Worker's are always direct).
  await page.fill("#endpoint-url", url);
  await page.selectOption("#route", route);
  await page.click("form.connect button[type=submit]");
}

/** Waits until the catalog lists `key` (the connection and its lists take a while here). */
async function catalogHas(page: Page, key: string) {
  try {
    await expect
      .poll(() => page.locator(`[data-key="${key}"]`).count(), { timeout: 40_000 })
      .toBe(1);
  } catch (error) {
    await page.click("#pane-tab-wire");
    const rows = await page.locator(".exchange-row").allTextContents();
    const doctor = await page.locator(".doctor").allTextContents();
    const note = await page.locator(".route-note").allTextContents();
    // What the page shows says why the catalog never came: the doctor, the wire, the route.
    throw new Error(
      `${String(error)}\nwire: ${rows.join(" | ")}\ndoctor: ${doctor.join("")}\nnote: ${note}`,
      { cause: error },
    );
  }
}

describe("servers that do not allow this page with CORS", () => {
  it("Auto reaches the SDK's example server through the relay, says so, and calls its tools", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectVia(page, sdk.url, "auto");
    await catalogHas(page, "tool:multi-greet");
    const note = await page.locator(".route-note").textContent();
    expect(note).toContain("through this Worker's relay");
    expect(note).toContain("CORS");
    expect(await page.locator(".sidebar").textContent()).toContain("collect-user-info");
    await select(page, "tool:multi-greet");
    await page.fill("#f_name", "relay");
    await page.click('[data-action="send"]');
    await expect
      .poll(() => page.locator(".call .blocks").textContent(), { timeout: 20_000 })
      .toContain("Good morning, relay!");
    // The wire view shows both legs; copy as curl gives the direct request to the server.
    await page.click("#pane-tab-wire");
    await page.locator(".exchange-row", { hasText: "tools/call" }).first().click();
    const detail = await page.locator(".exchange-detail").first().textContent();
    expect(detail).toContain("Page → relay");
    expect(detail).toContain("relay-target");
    expect(detail).toContain(`Relay → server · POST ${sdk.url}`);
    await page.locator(".exchange-detail").first().locator("text=Copy as curl / fetch").click();
    const curl = await page.locator(".copy-text").textContent();
    expect(curl).toContain(sdk.url);
    expect(curl).not.toContain("/relay");
    expect(curl).not.toContain("Relay-");
    await checkAccessibility(page, "relayed connection");
    await close();
  });

  it("a direct-only attempt shows the doctor naming the missing header and offering the relay", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectVia(page, sdk.url, "direct");
    await page.locator(".doctor").waitFor({ timeout: 30_000 });
    const doctor = page.locator(".doctor");
    expect(await doctor.locator("h2").textContent()).toContain("CORS");
    const text = await doctor.textContent();
    expect(text).toContain(`Access-Control-Allow-Origin: ${new URL(page.url()).origin}`);
    expect(text).toContain("this Worker's relay gets around it");
    expect(await doctor.locator(".hops [data-rule='hop.answer']").getAttribute("data-status")).toBe(
      "fail",
    );
    await checkAccessibility(page, "doctor offering the relay");
    await doctor.getByRole("button", { name: "Connect through this Worker's relay" }).click();
    await catalogHas(page, "tool:greet");
    expect(await page.locator(".route-note").textContent()).toContain("relay");
    await close();
  });

  it("Auto says what the server answered through the relay (a 401), not that the relay could not connect", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectVia(page, guardedUrl, "auto");
    const doctor = page.locator(".doctor");
    await doctor.waitFor({ timeout: 30_000 });
    const text = (await doctor.textContent()) ?? "";
    expect(text).toContain("This Worker's relay reached the server:");
    expect(text).toContain("HTTP 401");
    expect(text).toContain("sign in, or add a token");
    expect(text).not.toContain("could not connect either");
    await checkAccessibility(page, "doctor after a 401 through the relay");
    await close();
  });

  it("calls server-everything's long-running tool through the relay, with progress", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectVia(page, everything.url, "relay");
    await catalogHas(page, "tool:trigger-long-running-operation");
    await select(page, "tool:trigger-long-running-operation");
    await page.fill("#f_duration", "2");
    await page.fill("#f_steps", "4");
    await page.click('[data-action="send"]');
    await expect
      .poll(() => page.locator(".progress-line").textContent(), { timeout: 20_000 })
      .toMatch(/\d \/ 4/);
    await expect
      .poll(() => page.locator(".call .blocks").textContent(), { timeout: 20_000 })
      .toContain("completed");
    await close();
  });
});
