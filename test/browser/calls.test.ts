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

describe("calling from the playground", () => {
  it("calls a tool through a generated form with nested objects, arrays of objects and variants", async () => {
    const { page, errors, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/everything");
    await select(page, "tool:schedule_meeting");
    const send = page.locator('[data-action="send"]');
    expect(await send.isDisabled()).toBe(true);
    expect(await page.locator(".problems").textContent()).toContain("title");
    await page.fill("#f_title", "Planning");
    await page.fill("#f_organizer_name", "Ada");
    await page.fill("#f_organizer_email", "not-an-email");
    expect(await page.locator(".problems").textContent()).toContain("organizer.email");
    await page.fill("#f_organizer_email", "ada@example.com");
    await page.click("text=+ Add item");
    await page.click("text=+ Add item");
    await page.fill("#f_attendees_0_name", "Bob");
    await page.fill("#f_attendees_0_email", "bob@example.com");
    await page.fill("#f_attendees_1_name", "Cy");
    await page.fill("#f_attendees_1_email", "cy@example.com");
    await page.click('[aria-label="Move item 2 up"]');
    expect(await page.inputValue("#f_attendees_0_name")).toBe("Cy");
    await page
      .locator("fieldset", { hasText: "Where it happens" })
      .locator("select")
      .first()
      .selectOption({ label: "Video call" });
    await page.fill("#f_location_url", "https://meet.example.com/abc");
    await page.click("#args-tab-json");
    const json = JSON.parse(await page.inputValue("#args-json"));
    expect(json).toMatchObject({
      attendees: [{ name: "Cy" }, { name: "Bob" }],
      location: { kind: "video", url: "https://meet.example.com/abc" },
    });
    await page.fill("#args-json", '{"title": "Planning", "oops"');
    await page.click("#args-tab-form");
    expect(await page.locator(".banner.warn").textContent()).toContain("does not parse");
    await page.click("#args-tab-json");
    expect(await page.inputValue("#args-json")).toBe('{"title": "Planning", "oops"');
    await page.fill("#args-json", JSON.stringify({ ...json, agenda: ["intro", "plan"] }, null, 2));
    await page.click("#args-tab-form");
    await screenshotBoth(page, "tool-form");
    await send.click();
    await page.locator(".structured").waitFor();
    expect(await page.locator(".structured h4").textContent()).toContain(
      "matches the output schema",
    );
    expect(await page.locator(".structured").textContent()).toContain("meet.example.com");
    await screenshotBoth(page, "tool-result");
    expect(errors).toEqual([]);
    await close();
  });

  it("sends on Ctrl+Enter exactly when the Send button is enabled: not with a number missing or JSON that does not parse", async () => {
    const { page, errors, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/everything");
    await select(page, "tool:add_numbers");
    const send = page.locator('[data-action="send"]');
    const callsShown = () => page.locator("article.detail .call").count();
    // The key handler starts a call at once; two frames later its card would be on the page.
    const settle = () =>
      page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
    await page.fill("#f_a", "20");
    expect(await send.isDisabled()).toBe(true);
    await page.keyboard.press("Control+Enter");
    await settle();
    expect(await callsShown()).toBe(0);
    await page.fill("#f_b", "22");
    await expect.poll(() => send.isDisabled()).toBe(false);
    await page.keyboard.press("Control+Enter");
    await expect.poll(() => page.locator(".structured").textContent()).toContain("42");
    expect(await page.locator("article.detail").textContent()).not.toContain("earlier call");
    await page.click("#args-tab-json");
    await page.fill("#args-json", '{"a": 20, "b"');
    await expect.poll(() => send.getAttribute("title")).toBe("Fix the JSON first");
    await page.keyboard.press("Control+Enter");
    await settle();
    expect(await page.locator("article.detail").textContent()).not.toContain("earlier call");
    await page.fill("#args-json", '{"a": 1, "b": 2}');
    await expect.poll(() => send.isDisabled()).toBe(false);
    await page.keyboard.press("Control+Enter");
    await expect
      .poll(() => page.locator("article.detail").textContent())
      .toContain("1 earlier call");
    expect(errors).toEqual([]);
    await close();
  });

  it("shows progress, and Cancel closes the stream so the server stops the work", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/everything");
    await select(page, "tool:test_slow_counter");
    await page.fill("#f_steps", "100");
    await page.fill("#f_delayMs", "200");
    await page.fill("#f_label", "browser-cancel");
    await page.click('[data-action="send"]');
    // Each step shows for 200 ms, and on a loaded machine one look at the page can take longer
    // than that: wait for any step past the first, well before the last.
    const step = async () => {
      const line =
        (await page
          .locator(".progress-line")
          .textContent()
          .catch(() => "")) ?? "";
      return Number(/Step (\d+) of 100/.exec(line)?.[1] ?? 0);
    };
    await expect.poll(step, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(await step()).toBeLessThan(90);
    await screenshotBoth(page, "progress");
    await page.click(".call-status button.danger");
    await expect.poll(() => page.locator(".call-status strong").textContent()).toBe("Cancelled");
    await select(page, "tool:test_abort_status");
    await page.fill("#f_label", "browser-cancel");
    // The closed stream reaches the server's handler within moments; ask until it says so.
    await expect
      .poll(
        async () => {
          await page.click('[data-action="send"]');
          await expect.poll(() => page.locator(".call-status strong").textContent()).toBe("Done");
          return page.locator(".call .blocks").textContent();
        },
        { timeout: 40_000, interval: 300 },
      )
      .toContain("aborted: browser-cancel at step");
    await close();
  });

  it("answers an elicitation inline, and the tool goes on with the answer", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/ops");
    await select(page, "tool:deploy_release");
    await page.fill("#f_version", "1.4.2");
    await page.selectOption("#f_environment", { label: "staging" });
    await page.click('[data-action="send"]');
    const card = page.locator(".input-card");
    await card.waitFor();
    expect(await card.textContent()).toContain("Deploy 1.4.2 to staging?");
    await card.locator("input[type=checkbox]").first().check();
    await card.locator("input:not([type=checkbox])").first().fill("from the browser test");
    await screenshotBoth(page, "elicitation");
    await card.locator("text=Accept").click();
    await expect
      .poll(() => page.locator(".call .blocks").textContent(), { timeout: 20_000 })
      .toContain("Deployed 1.4.2 to staging. Note: from the browser test");
    expect(await page.locator(".round").first().textContent()).toContain("input_required");
    expect(await page.locator(".badge.sealed").count()).toBeGreaterThan(0);
    await close();
  });

  it("reads a template resource with the server's completion for its variable", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/everything");
    await select(page, "template:test://template/{id}/data");
    await page.fill("#template-var-id", "4");
    await page.locator(".suggestions .chip", { hasText: "456" }).click();
    expect(await page.locator("article.detail").textContent()).toContain(
      "test://template/456/data",
    );
    await page.click('[data-action="send"]');
    await expect
      .poll(() => page.locator(".call .result").textContent())
      .toContain("Data for ID: 456");
    await checkAccessibility(page, "resource template");
    await close();
  });

  it("gets a prompt with argument completion and previews its messages", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/everything");
    await select(page, "prompt:summarize_text");
    await page.fill("#prompt-arg-text", "Edge runtimes are small.");
    await page.fill("#prompt-arg-style", "bu");
    await page.locator(".suggestions .chip", { hasText: "bullet-points" }).click();
    await page.click('[data-action="send"]');
    await expect
      .poll(() => page.locator(".call .messages").textContent())
      .toContain("Summarize as bullet-points");
    await close();
  });
});

describe("the request form's action bar", () => {
  it("stays at the foot of the column with nothing showing beneath it, its copy, link and save buttons together", async () => {
    const { page, close } = await openPlayground(chromium.browser);
    await connectTo(page, "/mcp/everything");
    // A form taller than the window, so the bar sticks rather than ending the page.
    await select(page, "tool:schedule_meeting");
    const layout = await page.evaluate(() => {
      const main = document.querySelector(".main")!.getBoundingClientRect();
      const bar = document.querySelector(".action-bar")!.getBoundingClientRect();
      const tops = ["Copy as curl / fetch", "Permalink", "Save…"].map((label) => {
        const button = [...document.querySelectorAll(".action-bar button")].find(
          (b) => b.textContent?.trim() === label,
        );
        return button ? Math.round(button.getBoundingClientRect().top) : undefined;
      });
      return {
        tall: document.querySelector(".main")!.scrollHeight > main.height,
        gapBelow: Math.round(main.bottom - bar.bottom),
        together: tops.every((top) => top !== undefined && top === tops[0]),
      };
    });
    expect(layout).toEqual({ tall: true, gapBelow: 0, together: true });
    await close();
  });
});
