import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthExample, type OAuthExample } from "../cli/oauth-example.ts";
import { launchChromium, openPage, type Chromium } from "./chromium.ts";
import { checkAccessibility, connectTo, endedCall, select, worker } from "./playground.ts";

let chromium: Chromium;
let example: OAuthExample;

beforeAll(async () => {
  chromium = await launchChromium();
  example = await startOAuthExample();
});
afterAll(async () => {
  example?.close();
  await chromium?.close();
});

type Kept = Record<
  string,
  { tokens?: Record<string, { access_token: string; expires_at?: number }> }
>;

/** What this tab's session storage keeps of the sign-in (only with "remember"). */
async function kept(page: Page): Promise<Kept | null> {
  return page.evaluate(() => {
    const text = sessionStorage.getItem("edgemcp.sign-in");
    return text === null ? null : (JSON.parse(text) as Kept);
  });
}

/** The access token kept for the first issuer with one. */
function keptToken(store: Kept | null): { access_token: string; expires_at?: number } | undefined {
  return Object.values(store ?? {})
    .flatMap((record) => Object.values(record.tokens ?? {}))
    .at(0);
}

/** Calls a tool from its form (fields by name) and waits for the call to end; its text. */
async function callTool(page: Page, name: string, fill: Record<string, string>): Promise<string> {
  await select(page, `tool:${name}`);
  for (const [field, value] of Object.entries(fill)) await page.fill(`#f_${field}`, value);
  await page.click('[data-action="send"]');
  return endedCall(page);
}

describe("signing in from the playground", () => {
  it("signs in to this Worker's notes server with the development login, calls a write tool, refreshes a lapsed token by itself and signs out (revoking)", async () => {
    const { page, errors, close } = await openPage(chromium.browser, `${worker()}/`);
    try {
      await page.locator("#dev-token").selectOption("");
      await connectTo(page, "/mcp/notes");
      await expect(page.locator('[data-key="tool:create_note"]').count()).resolves.toBe(0);

      const [popup] = await Promise.all([
        page.context().waitForEvent("page"),
        page.locator(".anonymous-note").getByRole("button", { name: "Sign in" }).click(),
      ]);
      await popup.waitForURL(/\/authorize\?/);
      await popup.check("input[value=alice]");
      await popup.click("button[value=allow]");

      const bar = page.locator("section.signed-in");
      await bar.waitFor({ timeout: 30_000 });
      expect(await bar.textContent()).toContain(new URL(worker()).origin);
      expect(await bar.locator(".sign-in-scopes").textContent()).toContain("mcp");
      expect(await bar.locator(".sign-in-expiry").textContent()).toMatch(
        /expires at .* \(in (59|60) min\)/,
      );
      await checkAccessibility(page, "signed-in connection");

      const text = await callTool(page, "create_note", {
        title: "Signed in",
        body: "from the page",
      });
      expect(text).toMatch(/Created note \d+/);

      // Remembered in this tab, then lapsed: the reloaded page refreshes it before connecting.
      expect(await kept(page)).toBeNull();
      await bar.getByLabel("Remember in this tab").check();
      await expect.poll(async () => keptToken(await kept(page))).toBeDefined();
      const first = keptToken(await kept(page));
      await page.evaluate(() => {
        const store = JSON.parse(sessionStorage.getItem("edgemcp.sign-in") ?? "{}") as Kept;
        for (const record of Object.values(store))
          for (const tokens of Object.values(record.tokens ?? {}))
            tokens.expires_at = Date.now() - 1000;
        sessionStorage.setItem("edgemcp.sign-in", JSON.stringify(store));
      });
      await page.reload();
      await bar.waitFor({ timeout: 30_000 });
      const second = keptToken(await kept(page));
      expect(second?.access_token).not.toBe(first?.access_token);
      expect(second?.expires_at).toBeGreaterThan(Date.now());
      expect(await bar.locator(".sign-in-expiry").textContent()).toMatch(/\(in (59|60) min\)/);
      const again = await callTool(page, "create_note", { title: "Refreshed", body: "by itself" });
      expect(again).toMatch(/Created note \d+/);

      // Sign out: revoked at the authorization server, forgotten here.
      await bar.getByRole("button", { name: "Sign out" }).click();
      await expect.poll(() => page.locator(".toast").textContent()).toContain("revoked");
      await expect.poll(async () => keptToken(await kept(page))).toBeUndefined();
      await expect.poll(() => bar.count()).toBe(0);
      const refused = await fetch(`${worker()}/mcp/notes`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${second?.access_token ?? ""}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
      expect(refused.status).toBe(401);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it("signs in to the official SDK's example server with its demo authorization server, lists every step of the flow with secrets masked, calls a tool and signs out", async () => {
    const { page, errors, close } = await openPage(chromium.browser, `${worker()}/`);
    try {
      await page.fill("#endpoint-url", example.url);
      await page.click("form.connect button[type=submit]");
      const offer = page.locator(".sign-in-offer");
      await offer.waitFor({ timeout: 30_000 });
      await checkAccessibility(page, "sign-in offer");
      // The demo server grants at once: the popup goes straight back to the callback.
      await Promise.all([
        page.context().waitForEvent("page"),
        offer.getByRole("button", { name: "Sign in", exact: true }).click(),
      ]);
      const bar = page.locator("section.signed-in");
      await bar.waitFor({ timeout: 30_000 });
      expect(await bar.textContent()).toContain(example.issuer);
      expect(await bar.locator(".sign-in-scopes").textContent()).toContain("mcp:tools");
      expect(await callTool(page, "greet", { name: "Ada" })).toContain("Hello, Ada");

      await bar.getByRole("button", { name: "Sign-in flow" }).click();
      const view = page.locator(".flow-view");
      const steps = await view
        .locator(".flow-step")
        .evaluateAll((items) =>
          items.map((li) => `${li.getAttribute("data-step")}:${li.getAttribute("data-status")}`),
        );
      expect(steps).toEqual([
        "challenge:ok",
        "resource-metadata:ok",
        "server-metadata:ok",
        "client:ok",
        "pkce:ok",
        "authorization:ok",
        "callback:ok",
        "token:ok",
        "retry:ok",
      ]);
      const token = view.locator('[data-step="token"]');
      await token.locator("summary").click();
      const shown = (await token.textContent()) ?? "";
      expect(shown).toContain("grant_type=authorization_code");
      expect(shown).toContain("code_verifier=••••••");
      expect(shown).toMatch(/"access_token": "••••••"/);
      await checkAccessibility(page, "sign-in flow");

      await bar.getByRole("button", { name: "Sign out" }).click();
      await expect.poll(() => page.locator(".toast").textContent()).toContain("Signed out");
      await offer.waitFor({ timeout: 30_000 });
      // The browser logs each refused cross-origin attempt (no CORS there: the relay carries
      // them); nothing else may go wrong on the page.
      expect(
        errors.filter((e) => !/Failed to load resource|blocked by CORS policy/.test(e)),
      ).toEqual([]);
    } finally {
      await close();
    }
  });

  it("goes step by step to a signed-in connection: each request waits for Next, and the authorization page opens at that click", async () => {
    const { page, close } = await openPage(chromium.browser, `${worker()}/`);
    try {
      await page.fill("#endpoint-url", example.url);
      await page.click("form.connect button[type=submit]");
      await page
        .locator(".sign-in-offer")
        .getByRole("button", { name: "Sign in step by step" })
        .click();
      const view = page.locator(".flow-view");
      const labels: string[] = [];
      // Each step's request takes its time on a loaded machine: wait for whichever comes, the
      // next step's button or the end, however long the request before it took.
      const shown = async () =>
        (
          await page.waitForFunction(
            () => {
              const flow = document.querySelector(".flow-view");
              if (flow?.querySelector(".flow-state")?.textContent?.includes("Signed in"))
                return { done: true, label: "" };
              const button = flow?.querySelector(".flow-next");
              return button ? { done: false, label: button.textContent ?? "" } : false;
            },
            undefined,
            { timeout: 30_000 },
          )
        ).jsonValue();
      for (let clicks = 0; clicks < 15; clicks++) {
        const step = await shown();
        if (!step) throw new Error("waitForFunction resolved without a value");
        const { done, label } = step;
        if (done) break;
        labels.push(label);
        const next = await view.locator(".flow-next").elementHandle();
        await next!.click();
        // The click is taken once that button is gone (or shows another step).
        await page.waitForFunction(
          ([button, was]) => !button!.isConnected || button!.textContent !== was,
          [next, label] as const,
          { timeout: 30_000 },
        );
      }
      await expect.poll(() => view.locator(".flow-state").textContent()).toContain("Signed in.");
      expect(labels[0]).toBe(`Next: Send POST ${example.url}`);
      expect(labels).toContain("Next: Open the authorization page");
      expect(labels.at(-1)).toMatch(/^Next: Send POST .*\/token$/);
      await page.locator("section.signed-in").waitFor();
    } finally {
      await close();
    }
  });
});
