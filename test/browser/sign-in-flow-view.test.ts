import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveNode, type LoopbackServer } from "../interop/support/http.ts";
import { launchChromium, openPage, type Chromium } from "./chromium.ts";
import { checkAccessibility, worker } from "./playground.ts";

let chromium: Chromium;
let hostile: LoopbackServer;

/**
 * A protected server whose authorization server metadata names its issuer with a trailing
 * slash the resource metadata does not have: the most common sign-in failure. CORS allowed.
 */
async function issuerMismatch(): Promise<LoopbackServer> {
  let base = "";
  const server = await serveNode((request, response) => {
    response.setHeader("access-control-allow-origin", "*");
    response.setHeader("access-control-allow-headers", "*");
    response.setHeader("access-control-expose-headers", "www-authenticate");
    if (request.method === "OPTIONS") return void response.end();
    const json = (body: unknown) => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(body));
    };
    const path = new URL(request.url ?? "/", base).pathname;
    if (path === "/mcp") {
      response.statusCode = 401;
      response.setHeader(
        "www-authenticate",
        `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
      );
      return void response.end();
    }
    if (path === "/.well-known/oauth-protected-resource/mcp")
      return json({ resource: `${base}/mcp`, authorization_servers: [base] });
    if (path === "/.well-known/oauth-authorization-server")
      return json({
        issuer: `${base}/`,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        code_challenge_methods_supported: ["S256"],
        response_types_supported: ["code"],
      });
    response.statusCode = 404;
    response.end();
  });
  base = server.origin;
  return server;
}

beforeAll(async () => {
  chromium = await launchChromium();
  hostile = await issuerMismatch();
});
afterAll(async () => {
  await hostile?.close();
  await chromium?.close();
});

describe("the sign-in flow view on a broken server", () => {
  it("explains an issuer mismatch step by step, in the spec's words and what the server's owner must change, and copies the trace as text and JSON", async () => {
    const { page, close } = await openPage(chromium.browser, `${worker()}/`);
    try {
      await page
        .context()
        .grantPermissions(["clipboard-read", "clipboard-write"], { origin: worker() });
      await page.fill("#endpoint-url", `${hostile.origin}/mcp`);
      await page.click("form.connect button[type=submit]");
      const offer = page.locator(".sign-in-offer");
      await offer.getByRole("button", { name: "Sign in step by step" }).click();
      const view = page.locator(".flow-view");
      const failed = view.locator('.flow-step[data-status="failed"]');
      // Each request waits for Next: the 401, the resource metadata, the server metadata.
      for (let clicks = 0; clicks < 6 && (await failed.count()) === 0; clicks++) {
        await view
          .locator(".flow-next")
          .click({ timeout: 10_000 })
          .catch(() => {});
      }
      await failed.waitFor();
      expect(await failed.getAttribute("data-step")).toBe("server-metadata");
      const words = (await failed.textContent()) ?? "";
      expect(words).toContain(
        `The metadata's issuer is \`${hostile.origin}/\` but it was fetched for \`${hostile.origin}\`: RFC 8414 §3.3 requires them to be identical`,
      );
      expect(await failed.locator(".flow-rule").textContent()).toBe("RFC 8414 §3.3");
      expect(await failed.locator(".flow-fix").textContent()).toContain(
        "The server's owner must make the metadata's issuer and the protected resource metadata's authorization_servers entry the same string",
      );
      expect(await view.locator(".flow-state").textContent()).toContain("Stopped");
      await checkAccessibility(page, "sign-in flow failure");

      await view.getByRole("button", { name: "Copy as text" }).click();
      const text = await page.evaluate(() => navigator.clipboard.readText());
      expect(text).toContain("3. Authorization server metadata: failed");
      expect(text).toContain("Rule: RFC 8414 §3.3");
      expect(text).toContain("To fix: The server's owner must");
      expect(text).toContain(`> GET ${hostile.origin}/.well-known/oauth-authorization-server`);
      await view.getByRole("button", { name: "Copy as JSON" }).click();
      const json = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
        server: string;
        steps: { name: string; status: string; rule?: string; exchanges: unknown[] }[];
      };
      expect(json.server).toBe(`${hostile.origin}/mcp`);
      expect(json.steps.map((s) => `${s.name}:${s.status}`)).toEqual([
        "challenge:ok",
        "resource-metadata:ok",
        "server-metadata:failed",
      ]);
      expect(json.steps[2]?.rule).toBe("RFC 8414 §3.3");
      expect(json.steps[2]?.exchanges).toHaveLength(1);
    } finally {
      await close();
    }
  });
});
