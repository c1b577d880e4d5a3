import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot, type Chromium } from "./chromium.ts";
import {
  checkAccessibility,
  connectTo,
  openPlayground,
  screenshotBoth,
  select,
  worker,
} from "./playground.ts";

let chromium: Chromium;
// An MCP-looking server that sends no CORS headers at all, as many do.
let noCors: Server;
let noCorsUrl: string;
// A server that lets any page call it but takes its time over the first POST, then fails it.
let slow: Server;
let slowUrl: string;
let slowReceived: Promise<void>;
let slowAnswered: Promise<void>;

beforeAll(async () => {
  chromium = await launchChromium();
  noCors = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }));
  });
  await new Promise<void>((resolve) => noCors.listen(0, "127.0.0.1", resolve));
  noCorsUrl = `http://127.0.0.1:${(noCors.address() as AddressInfo).port}/mcp`;
  let received!: () => void;
  let answered!: () => void;
  slowReceived = new Promise((resolve) => (received = resolve));
  slowAnswered = new Promise((resolve) => (answered = resolve));
  let first = true;
  slow = createServer((request, response) => {
    request.resume();
    response.setHeader("Access-Control-Allow-Origin", "*");
    response.setHeader("Access-Control-Allow-Headers", "*");
    response.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE");
    if (request.method === "POST" && first) {
      first = false;
      received();
      setTimeout(() => {
        response.writeHead(500, { "Content-Type": "text/plain" });
        response.end("slow and broken");
        answered();
      }, 1500);
      return;
    }
    response.writeHead(request.method === "OPTIONS" ? 204 : 404);
    response.end();
  });
  await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
  slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await chromium?.close();
  await new Promise((resolve) => noCors?.close(resolve));
  await new Promise((resolve) => slow?.close(resolve));
});

describe("the playground's front door", () => {
  it("connects to the hub by itself and shows its catalog grouped by upstream, with health", async () => {
    const { page, errors, close } = await openPlayground(chromium.browser);
    await page.locator(".upstream").first().waitFor();
    const upstreams = await page.locator(".upstream summary .upstream-name").allTextContents();
    expect(upstreams).toEqual(
      expect.arrayContaining(["everything", "analytics", "notes", "ops", "ext"]),
    );
    await expect
      .poll(() => page.locator(".upstream summary .health.ok").count())
      .toBeGreaterThanOrEqual(5);
    await expect
      .poll(() => page.locator(".upstream summary").filter({ hasText: "ms" }).count())
      .toBeGreaterThanOrEqual(4);
    await expect.poll(() => page.locator(".era-modern").textContent()).toContain("2026");
    await page.fill("#catalog-search", "deploy");
    expect(await page.locator(".sidebar .entry").allTextContents()).toEqual([
      expect.stringContaining("Deploy a release"),
    ]);
    await page.fill("#catalog-search", "");
    await screenshotBoth(page, "catalog-hub");
    expect(errors).toEqual([]);
    await close();
  });

  it("jumps to any item from the command palette, by keyboard only", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await page.locator(".upstream").first().waitFor();
    // A slow machine: keys typed right after Ctrl-K must still land in the palette.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 8 });
    await page.keyboard.press("Control+k");
    await page.keyboard.type("add numbers");
    await expect.poll(() => page.locator("#palette-input").inputValue()).toBe("add numbers");
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    // Enter runs the highlighted match: wait until the typing has reached it.
    await expect
      .poll(() => page.locator("#palette-list li.active").textContent())
      .toContain("Add numbers");
    await screenshot(page, "palette-light");
    await checkAccessibility(page, "command palette");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("article.detail h2").textContent()).toBe("Add numbers");
    // The keyboard goes with it: the next Tab is in the item's view, not back at the page's top.
    const focused = () => page.evaluate(() => document.activeElement?.id);
    expect(await focused()).toBe("main");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("#main") !== null)).toBe(true);
    // Escape hands the keyboard back to what had it before Ctrl-K.
    await page.focus("#catalog-search");
    await page.keyboard.press("Control+k");
    await expect.poll(focused).toBe("palette-input");
    await page.keyboard.press("Escape");
    expect(await focused()).toBe("catalog-search");
    await close();
  });

  it("shows a tool's schemas in words, its annotations, and refreshes the catalog from the network", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/everything");
    await select(page, "tool:add_numbers");
    await page.click("text=Input schema");
    expect(await page.locator(".schema-members").first().textContent()).toContain("First addend");
    expect(await page.locator(".annotations").textContent()).toContain("read-only");
    await page.click("text=↻ Refresh");
    await expect
      .poll(() => page.locator(".catalog-meta .provenance").textContent())
      .toContain("from network");
    await checkAccessibility(page, "tool detail");
    await close();
  });

  it("explains a wrong path with the endpoints that do answer", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await page.locator(".upstream").first().waitFor();
    await page.fill("#endpoint-url", `${worker()}/mcp/nope`);
    await page.click("form.connect button[type=submit]");
    await page.locator(".doctor").waitFor();
    expect(await page.locator(".doctor h2").textContent()).toContain("404");
    expect(await page.locator(".doctor .suggestions-list").textContent()).toContain(
      `${worker()}/mcp/notes`,
    );
    await screenshotBoth(page, "doctor-404");
    await page.click(`.doctor .suggestions-list >> text=${worker()}/mcp/notes`);
    await page.locator("[data-key='tool:create_note']").waitFor();
    await close();
  });

  it("explains a server without CORS instead of “failed to fetch”", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await page.locator(".upstream").first().waitFor();
    await page.fill("#endpoint-url", noCorsUrl);
    await page.click("form.connect button[type=submit]");
    await page.locator(".doctor").waitFor({ timeout: 20_000 });
    expect(await page.locator(".doctor h2").textContent()).toContain("CORS");
    expect(await page.locator(".doctor").textContent()).toContain("Access-Control-Allow-Origin");
    await screenshotBoth(page, "doctor-cors");
    await close();
  });

  it("lets a server picked while another is still connecting win: the slow one's failure is not shown", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await page.locator(".upstream").first().waitFor();
    const slowOrigin = new URL(slowUrl).origin;
    let toSlow = 0;
    page.on("request", (r) => void (r.url().startsWith(slowOrigin) && toSlow++));
    const settled = (r: { url(): string }) => void (r.url().startsWith(slowOrigin) && toSlow--);
    page.on("requestfinished", settled);
    page.on("requestfailed", settled);
    const slowRead = page.waitForEvent("requestfinished", {
      predicate: (r) => r.url() === slowUrl && r.method() === "POST",
      timeout: 30_000,
    });
    await page.fill("#endpoint-url", slowUrl);
    await page.click("form.connect button[type=submit]");
    await slowReceived;
    await page.selectOption("#endpoint-pick", "/mcp/everything");
    await page.locator("[data-key='tool:add_numbers']").waitFor();
    await slowAnswered;
    // The page has read the slow failure; whatever it does next (a diagnosis, its requests) has
    // begun within a task and a frame of that, and has ended once nothing is left in flight.
    await slowRead;
    const settle = () =>
      page.evaluate(() => new Promise((done) => setTimeout(() => requestAnimationFrame(done), 0)));
    await settle();
    await expect.poll(() => toSlow).toBe(0);
    await settle();
    expect(await page.locator(".doctor").count()).toBe(0);
    expect(await page.inputValue("#endpoint-url")).toBe(`${worker()}/mcp/everything`);
    expect(await page.locator("[data-key='tool:add_numbers']").isVisible()).toBe(true);
    expect(await page.locator("form.connect button[type=submit]").textContent()).toBe("Reconnect");
    await close();
  });

  it("speaks the 2025 handshake when that era is chosen", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await page.locator(".upstream").first().waitFor();
    await page.selectOption("#era", "legacy");
    await connectTo(page, "/mcp/everything");
    expect(await page.locator(".era-legacy").textContent()).toContain("2025");
    await close();
  });
});

describe("the connection bar", () => {
  it("shows the whole endpoint URL and every control's label, from a phone to a wide screen", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await page.locator(".upstream").first().waitFor();
    await connectTo(page, "/mcp/everything");
    for (const width of [320, 390, 1024, 1280, 1440, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      const layout = await page.evaluate(() => {
        const url = document.querySelector<HTMLInputElement>("#endpoint-url")!;
        const canvas = document.createElement("canvas").getContext("2d")!;
        // A select shows its chosen option's label: it fits when the box is wider than the text.
        const cut = [...document.querySelectorAll<HTMLSelectElement>(".connect select")]
          .filter((select) => select.id !== "endpoint-pick") // capped on purpose; the URL says it
          .filter((select) => {
            canvas.font = getComputedStyle(select).font;
            const label = select.selectedOptions[0]?.textContent ?? "";
            return canvas.measureText(label).width > select.clientWidth - 16;
          })
          .map((select) => select.id);
        const outside = [
          ...document.querySelectorAll<HTMLElement>(".topbar button, .topbar select"),
        ]
          .filter((control) => control.getBoundingClientRect().right > innerWidth)
          .map((control) => control.id || control.textContent);
        const clipped = [...document.querySelectorAll<HTMLButtonElement>(".topbar button")]
          .filter((button) => button.scrollWidth > button.clientWidth)
          .map((button) => button.textContent);
        return {
          url: url.value,
          urlFits: url.scrollWidth <= url.clientWidth,
          cut,
          outside,
          clipped,
          overflow: document.documentElement.scrollWidth > innerWidth,
        };
      });
      expect({ width, ...layout }).toEqual({
        width,
        url: `${worker()}/mcp/everything`,
        urlFits: true,
        cut: [],
        outside: [],
        clipped: [],
        overflow: false,
      });
    }
    await close();
  });
});
