import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodePermalink } from "../../web/src/lib/permalink.ts";
import { launchChromium, openPage, type Chromium } from "./chromium.ts";
import { checkAccessibility, connectTo, endedCall, select, worker } from "./playground.ts";

let chromium: Chromium;

beforeAll(async () => {
  chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
});

/** The sign-in popup a click opens: Alice picked at the Worker's development login, Allow. */
async function allowInPopup(page: Page, click: () => Promise<void>): Promise<URL> {
  const [popup] = await Promise.all([page.context().waitForEvent("page"), click()]);
  await popup.waitForURL(/\/authorize\?/);
  const asked = new URL(popup.url());
  await popup.check("input[value=alice]");
  await popup.click("button[value=allow]");
  return asked;
}

describe("stepping up from the playground", () => {
  it("signed in with the server's baseline scope, a tool that needs more gets 403 insufficient_scope, and the page signs in for the union of scopes and the call succeeds", async () => {
    const { page, errors, close } = await openPage(chromium.browser, `${worker()}/`);
    try {
      await page.locator("#dev-token").selectOption("");
      await connectTo(page, "/mcp/notes");
      const first = await allowInPopup(page, () =>
        page.locator(".anonymous-note").getByRole("button", { name: "Sign in" }).click(),
      );
      expect(first.searchParams.get("scope")).toBe("mcp offline_access");
      const bar = page.locator("section.signed-in");
      await bar.waitFor({ timeout: 30_000 });
      expect(await bar.locator(".sign-in-scopes").textContent()).toBe("mcp offline_access");

      await select(page, "tool:create_note");
      await page.fill("#f_title", "To delete");
      await page.fill("#f_body", "after a step-up");
      await page.click('[data-action="send"]');
      const created = /Created note (\d+)/.exec(await endedCall(page))?.[1];
      expect(created).toBeDefined();
      // This token may not delete: the server does not list delete_note to it.
      expect(await page.locator('[data-key="tool:delete_note"]').count()).toBe(0);

      // A link to delete that note, as someone allowed to would share it.
      const link = encodePermalink({
        url: `${worker()}/mcp/notes`,
        era: "auto",
        kind: "tool",
        name: "delete_note",
        args: { id: Number(created) },
      });
      const tokenRequests: string[] = [];
      page.on("request", (request) => {
        if (new URL(request.url()).pathname.endsWith("/token"))
          tokenRequests.push(request.postData() ?? "");
      });
      await page.evaluate((hash) => (location.hash = hash), link);
      const missing = page.locator(".missing-item");
      await missing.waitFor({ timeout: 30_000 });
      expect(await missing.textContent()).toContain("Your sign-in may not allow it");
      await checkAccessibility(page, "a link's tool the sign-in does not list");

      const stepUp = await allowInPopup(page, () =>
        missing.getByRole("button", { name: "Call it with the link's arguments" }).click(),
      );
      // The scopes held and the one the 403 named, asked for together.
      expect(stepUp.searchParams.get("scope")?.split(" ").sort()).toEqual([
        "mcp",
        "notes:delete",
        "offline_access",
      ]);
      expect(await endedCall(page)).toContain(`Deleted note ${created}.`);
      await expect
        .poll(() => bar.locator(".sign-in-scopes").textContent())
        .toBe("mcp offline_access notes:delete");
      expect(tokenRequests.filter((form) => form.includes("authorization_code"))).toHaveLength(1);

      // The flow view traced the step-up: a new authorization, its callback and token.
      await bar.getByRole("button", { name: "Sign-in flow" }).click();
      const view = page.locator(".flow-view");
      const steps = await view
        .locator(".flow-step")
        .evaluateAll((items) =>
          items.map((li) => `${li.getAttribute("data-step")}:${li.getAttribute("data-status")}`),
        );
      expect(steps.slice(-5)).toEqual([
        "pkce:ok",
        "authorization:ok",
        "callback:ok",
        "token:ok",
        "retry:ok",
      ]);
      // The browser logs the refused call's 403, the answer the step-up starts from.
      expect(errors.filter((e) => !e.includes("status of 403 (Forbidden)"))).toEqual([]);
      expect(errors.filter((e) => e.includes("status of 403"))).toHaveLength(1);
    } finally {
      await close();
    }
  });
});
