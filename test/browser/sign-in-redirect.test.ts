import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodePermalink } from "../../web/src/lib/permalink.ts";
import { launchChromium, type Chromium } from "./chromium.ts";
import {
  catalogOf,
  checkAccessibility,
  connectTo,
  endedCall,
  select,
  worker,
} from "./playground.ts";

let chromium: Chromium;

beforeAll(async () => {
  chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
});

const PENDING = "edgemcp.sign-in.pending";

/**
 * The playground in a browser that blocks every popup (window.open answers null, as Chromium's
 * blocker does), connected anonymously to the Worker's notes server, which offers sign-in.
 * Every request for /token is counted.
 */
async function blockedPage() {
  const context = await chromium.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    window.open = () => null;
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const tokenRequests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith("/token")) tokenRequests.push(request.method());
  });
  await page.goto(`${worker()}/`);
  await page.locator("#dev-token").selectOption("");
  await connectTo(page, "/mcp/notes");
  return { page, context, errors, tokenRequests, close: () => context.close() };
}

/** What this tab keeps of a sign-in it left for (null: nothing). */
const pending = (page: Page) =>
  page.evaluate((key) => sessionStorage.getItem(key), PENDING) as Promise<string | null>;

/** Clicks Sign in and follows this tab to the authorization page. */
async function leaveForSignIn(page: Page): Promise<void> {
  await page.locator(".anonymous-note").getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/authorize\?/, { timeout: 30_000 });
}

describe("signing in from the playground where popups are blocked", () => {
  it("goes to the authorization page in this tab, comes back signed in to the same connection, and calls a tool", async () => {
    const { page, context, errors, tokenRequests, close } = await blockedPage();
    try {
      await leaveForSignIn(page);
      const asked = new URL(page.url());
      const kept = await pending(page);
      expect(kept).not.toBeNull();
      const trip = JSON.parse(kept ?? "{}") as {
        expiresAt: number;
        pending: { verifier: string; state: string; server: string };
      };
      // The verifier waits in this tab, never in the URL; the state is the one sent.
      expect(trip.pending.server).toBe(`${worker()}/mcp/notes`);
      expect(trip.pending.state).toBe(asked.searchParams.get("state"));
      expect(asked.href).not.toContain(trip.pending.verifier);
      expect(kept).not.toMatch(/"(access_token|refresh_token)":/);
      expect(trip.expiresAt - Date.now()).toBeLessThanOrEqual(10 * 60_000);
      expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(
        trip.pending.verifier,
      );

      await page.check("input[value=alice]");
      await page.click("button[value=allow]");
      const bar = page.locator("section.signed-in");
      await bar.waitFor({ timeout: 30_000 });
      expect(await page.locator(".toast").textContent()).toContain(
        "Signed in, in this tab: popups are blocked here.",
      );
      expect(new URL(page.url()).search).toBe("");
      expect(page.url()).not.toContain("code=");
      expect(await pending(page)).toBeNull();
      expect(await page.inputValue("#endpoint-url")).toBe(`${worker()}/mcp/notes`);
      expect(await bar.locator(".sign-in-scopes").textContent()).toContain("mcp");
      expect(tokenRequests).toEqual(["POST"]);
      expect(context.pages()).toHaveLength(1);

      await select(page, "tool:create_note");
      await page.fill("#f_title", "Redirected");
      await page.fill("#f_body", "signed in without a popup");
      await page.click('[data-action="send"]');
      expect(await endedCall(page)).toMatch(/Created note \d+/);

      await bar.getByRole("button", { name: "Sign-in flow" }).click();
      const view = page.locator(".flow-view");
      const steps = await view
        .locator(".flow-step")
        .evaluateAll((items) =>
          items.map((li) => `${li.getAttribute("data-step")}:${li.getAttribute("data-status")}`),
        );
      expect(steps).toEqual(["authorization:ok", "callback:ok", "token:ok", "retry:ok"]);
      expect(await view.textContent()).toContain("Popups are blocked for this page");
      await checkAccessibility(page, "sign-in flow after a redirect");
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it("refuses an answer whose state is not the one this tab sent, says so and keeps nothing", async () => {
    const { page, tokenRequests, close } = await blockedPage();
    try {
      await leaveForSignIn(page);
      // The answer comes back with another state, as a forged link to the callback would: the
      // authorization server's redirect is rewritten on its way to the browser.
      await page.route("**/authorize?**", async (route) => {
        if (route.request().method() !== "POST") return route.continue();
        const answer = await route.fetch({ maxRedirects: 0 });
        const location = new URL(answer.headers()["location"] ?? "", worker());
        location.searchParams.set("state", "forged");
        await route.fulfill({ status: 302, headers: { location: location.href } });
      });
      await page.check("input[value=alice]");
      await page.click("button[value=allow]");
      const view = page.locator(".flow-view");
      await view.waitFor({ timeout: 30_000 });
      const failed = view.locator('.flow-step[data-step="callback"][data-status="failed"]');
      await failed.waitFor({ timeout: 30_000 });
      expect(await failed.textContent()).toContain(
        "The callback's state does not match the one sent, so it may not answer this sign-in and was refused.",
      );
      expect(await page.locator(".toast").textContent()).toContain(
        "The sign-in did not finish: the sign-in flow says why.",
      );
      expect(await pending(page)).toBeNull();
      expect(tokenRequests).toEqual([]);
      expect(await page.locator("section.signed-in").count()).toBe(0);
      // The page is back on the server, anonymous, and can sign in again from the flow view.
      await catalogOf(page, `${worker()}/mcp/notes`);
      expect(await page.locator('[data-key="tool:create_note"]').count()).toBe(0);
      expect(await page.inputValue("#endpoint-url")).toBe(`${worker()}/mcp/notes`);
      await expect(view.getByRole("button", { name: "Run all" }).isEnabled()).resolves.toBe(true);
    } finally {
      await close();
    }
  });

  it("drops a sign-in that took longer than 10 minutes at the authorization page, unused", async () => {
    const { page, tokenRequests, close } = await blockedPage();
    try {
      await leaveForSignIn(page);
      // The authorization page is this Worker's, so it shares the tab's session storage.
      await page.evaluate((key) => {
        const trip = JSON.parse(sessionStorage.getItem(key) ?? "{}") as { expiresAt: number };
        trip.expiresAt = Date.now() - 1000;
        sessionStorage.setItem(key, JSON.stringify(trip));
      }, PENDING);
      await page.check("input[value=alice]");
      await page.click("button[value=allow]");
      const failed = page.locator('.flow-step[data-step="callback"][data-status="failed"]');
      await failed.waitFor({ timeout: 30_000 });
      expect(await failed.textContent()).toContain(
        "The sign-in this tab started more than 10 minutes ago has expired, so its answer was not used",
      );
      expect(await pending(page)).toBeNull();
      expect(tokenRequests).toEqual([]);
    } finally {
      await close();
    }
  });

  it("steps up through this tab too: a 403 insufficient_scope offers the sign-in page, whose refused popup takes this tab there for the union of scopes", async () => {
    const { page, close } = await blockedPage();
    try {
      await leaveForSignIn(page);
      await page.check("input[value=alice]");
      await page.click("button[value=allow]");
      const bar = page.locator("section.signed-in");
      await bar.waitFor({ timeout: 30_000 });
      expect(await bar.locator(".sign-in-scopes").textContent()).toBe("mcp offline_access");
      expect(await page.locator('[data-key="tool:delete_note"]').count()).toBe(0);

      const link = encodePermalink({
        url: `${worker()}/mcp/notes`,
        era: "auto",
        kind: "tool",
        name: "delete_note",
        args: { id: 1 },
      });
      await page.evaluate((hash) => (location.hash = hash), link);
      await page
        .locator(".missing-item")
        .getByRole("button", { name: "Call it with the link's arguments" })
        .click();
      // No popup could open after the call: a click on the offer opens it, or goes in this tab.
      await bar
        .getByRole("button", { name: "Open the sign-in page (the server asks for more)" })
        .click();
      await page.waitForURL(/\/authorize\?/, { timeout: 30_000 });
      expect(new URL(page.url()).searchParams.get("scope")?.split(" ").sort()).toEqual([
        "mcp",
        "notes:delete",
        "offline_access",
      ]);
      await page.check("input[value=alice]");
      await page.click("button[value=allow]");
      await bar.waitFor({ timeout: 30_000 });
      await expect
        .poll(() => bar.locator(".sign-in-scopes").textContent(), { timeout: 30_000 })
        .toBe("mcp offline_access notes:delete");
      expect(await pending(page)).toBeNull();
      // The new token may delete: the server lists the tool to it now.
      await page.locator('[data-key="tool:delete_note"]').waitFor({ timeout: 30_000 });
      // The tab came back to the link, whose request is on screen again, ready to send.
      expect(new URL(page.url()).hash).toBe(link);
      await expect
        .poll(() => page.locator('[data-key="tool:delete_note"]').getAttribute("aria-current"))
        .toBe("true");
      expect(await page.inputValue("#f_id")).toBe("1");
      await page.click('[data-action="send"]');
      expect(await endedCall(page)).toContain("Deleted note 1.");
    } finally {
      await close();
    }
  });
});
