import { describe, expect, it } from "vitest";
import { mcpRequest } from "../../support/mcp-request.ts";
import { accessToken, Browser, fetchWorker, ORIGIN } from "./browser.ts";

const GRANTS = `${ORIGIN}/oauth/grants`;
const listNotes = (token: string) =>
  fetchWorker(
    mcpRequest(
      "tools/list",
      {},
      { server: "notes", headers: { Authorization: `Bearer ${token}` } },
    ),
  );
const formToken = (html: string) => /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";

describe("the grant list of the signed-in person", () => {
  it("lists the app, the server and the scopes it was allowed, and Revoke stops its tokens", async () => {
    const { access, browser } = await accessToken({ scope: "mcp notes:delete" });
    const page = await browser.fetch(GRANTS);
    expect(page.status).toBe(200);
    expect(page.headers.get("X-Frame-Options")).toBe("DENY");
    const html = await page.text();
    expect(html).toContain("Signed in as <strong>alice</strong>");
    expect(html).toMatch(/<td>Test app<\/td><td>Notes \(D1\)<\/td>/);
    expect(html).toContain("<code>notes:delete</code>");
    expect((await listNotes(access)).status).toBe(200);

    const grant = /name="grant" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const revoked = await browser.post(GRANTS, { token: formToken(html), grant });
    expect(revoked.status).toBe(303);
    const after = await listNotes(access);
    expect(after.status).toBe(401);
    expect(after.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    expect(await (await browser.fetch(GRANTS)).text()).toContain("No app may act for you.");
  });

  it("refuses a revocation posted without the page's form token (CSRF)", async () => {
    const { access, browser } = await accessToken();
    const html = await (await browser.fetch(GRANTS)).text();
    const grant = /name="grant" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const forged = await browser.post(GRANTS, { token: "guessed", grant });
    expect(forged.status).toBe(403);
    expect((await listNotes(access)).status).toBe(200);
  });

  it("shows nothing to a browser that is not signed in, or signed out", async () => {
    const stranger = await new Browser().fetch(GRANTS);
    expect(stranger.status).toBe(401);
    expect(await stranger.text()).not.toContain("Test app");

    const { browser } = await accessToken();
    const html = await (await browser.fetch(GRANTS)).text();
    const out = await browser.post(GRANTS, { token: formToken(html), action: "sign-out" });
    expect(out.status).toBe(200);
    expect((await browser.fetch(GRANTS)).status).toBe(401);
  });

  it("does not take a session cookie it did not sign", async () => {
    const browser = new Browser();
    browser.cookies.set(
      "__Host-edgemcp-signed-in",
      `alice.${Math.floor(Date.now() / 1000) + 600}.forged`,
    );
    expect((await browser.fetch(GRANTS)).status).toBe(401);
  });
});
