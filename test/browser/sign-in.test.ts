import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveNode, type LoopbackServer } from "../interop/support/http.ts";
import { launchChromium, openPage, type Chromium } from "./chromium.ts";
import { checkAccessibility, worker } from "./playground.ts";

let chromium: Chromium;
let app: LoopbackServer;
const callbacks: URL[] = [];

// A host application's loopback redirect: it only records what the browser brings back.
beforeAll(async () => {
  chromium = await launchChromium();
  app = await serveNode((request, response) => {
    callbacks.push(new URL(request.url ?? "/", "http://127.0.0.1"));
    response.end("signed in");
  });
});
afterAll(async () => {
  await chromium?.close();
  await app?.close();
});

async function authorizeUrl(): Promise<string> {
  const redirect = `${app.origin}/callback`;
  const registered = await fetch(`${worker()}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: "Browser host",
      redirect_uris: [redirect],
      token_endpoint_auth_method: "none",
    }),
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  return `${worker()}/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirect,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    state: "from-the-browser",
    resource: `${worker()}/mcp/notes`,
    scope: "mcp notes:delete",
  }).toString()}`;
}

describe("the sign-in page in Chromium", () => {
  it.each(["light", "dark"] as const)(
    "is accessible in the %s theme, says who asks for what, and signs in with Allow",
    async (theme) => {
      const { page, errors, close } = await openPage(chromium.browser, await authorizeUrl(), theme);
      try {
        await expect(page.locator("h1").textContent()).resolves.toContain("Browser host");
        await expect(page.locator("main").textContent()).resolves.toContain("Delete your notes");
        await checkAccessibility(page, `sign-in (${theme})`);
        await page.check("input[value=bob]");
        await page.click("button[value=allow]");
        await page.waitForURL(`${app.origin}/callback?**`);
        // The browser may ask the host for /favicon.ico after the callback: read the callback.
        const last = callbacks.findLast((url) => url.pathname === "/callback");
        expect(last?.searchParams.get("state")).toBe("from-the-browser");
        expect(last?.searchParams.get("code")).toBeTruthy();
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    },
  );

  it("does not load inside another site's frame", async () => {
    const { page, close } = await openPage(chromium.browser, `${app.origin}/host`);
    try {
      const url = await authorizeUrl();
      // setContent waits for the load event, which waits for the frame's own load.
      await page.setContent(`<iframe id="f" src="${url}"></iframe>`);
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      // Chromium replaces a refused frame with its error page.
      expect(frame?.url()).toBe("chrome-error://chromewebdata/");
      const text = await frame?.evaluate(() => document.body?.innerText ?? "").catch(() => "");
      expect(text ?? "").not.toContain("Allow");
    } finally {
      await close();
    }
  });
});
