import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startThirdParty, type ThirdPartyServer } from "../support/third-party/servers.ts";
import { launchChromium, type Chromium } from "./chromium.ts";
import { catalogOf, checkAccessibility, endedCall, openPlayground, select } from "./playground.ts";

// The SDK's form elicitation example sends no CORS headers: Auto reaches it through the relay.
let chromium: Chromium;
let server: ThirdPartyServer;
beforeAll(async () => {
  [chromium, server] = await Promise.all([launchChromium(), startThirdParty("sdkElicitationForm")]);
});
afterAll(async () => {
  await Promise.all([chromium?.close(), server?.stop()]);
});

describe("the playground against the SDK's form elicitation example", () => {
  it("states an exact length as such and sends the address the form was filled with", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await page.fill("#endpoint-url", server.url);
    await page.click("form.connect button[type=submit]");
    await catalogOf(page, server.url);
    await select(page, "tool:update_shipping_address");
    await page.click('[data-action="send"]');
    const card = page.locator(".call .input-card");
    await card.waitFor({ timeout: 20_000 });
    // State/Province is two characters, no more and no fewer.
    const state = card.locator(".field", { hasText: "State/Province" });
    expect(await state.textContent()).toContain("exactly 2 characters");
    expect(await state.textContent()).not.toContain("2–2");
    const answers: [string, string][] = [
      ["Full Name", "Ada Lovelace"],
      ["Street Address", "12 St James's Square"],
      ["City", "London"],
      ["State/Province", "LN"],
      ["ZIP/Postal Code", "12345"],
    ];
    for (const [label, value] of answers)
      await card.getByLabel(label, { exact: false }).first().fill(value);
    await checkAccessibility(page, "an elicitation form from the SDK");
    await card.locator("button", { hasText: "Accept" }).click();
    expect(await endedCall(page)).toContain("Address updated successfully!");
    expect(await page.locator(".call .blocks").textContent()).toContain('"state": "LN"');
    await close();
  });
});
