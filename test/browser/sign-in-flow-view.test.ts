import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveNode, type LoopbackServer } from "../interop/support/http.ts";
import { launchChromium, openPage, type Chromium } from "./chromium.ts";
import { checkAccessibility, worker } from "./playground.ts";

let chromium: Chromium;
let hostile: LoopbackServer;

/**
 * Protected servers that break one rule each, under their own path: `/mismatch` names its
 * issuer with a trailing slash the resource metadata does not have (the most common sign-in
 * failure), `/no-pkce` lists no S256, `/not-json` serves metadata that is not JSON, `/basic`
 * answers 401 without a Bearer challenge. CORS allowed, so the page reaches them directly.
 */
async function brokenServers(): Promise<LoopbackServer> {
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
    // RFC 8414 puts the issuer's path after the well-known name: /.well-known/<name>/<kind>.
    const inserted = /^\/(\.well-known\/oauth-authorization-server)\/([^/]+)\/?$/.exec(path);
    const [, kind = "", ...rest] = inserted ? ["", inserted[2], inserted[1]] : path.split("/");
    const at = `${base}/${kind}`;
    const tail = rest.join("/");
    if (tail === "mcp") {
      response.statusCode = 401;
      response.setHeader(
        "www-authenticate",
        kind === "basic"
          ? 'Basic realm="mcp"'
          : `Bearer resource_metadata="${at}/.well-known/oauth-protected-resource/mcp"`,
      );
      return void response.end();
    }
    if (tail === ".well-known/oauth-protected-resource/mcp")
      return json({ resource: `${at}/mcp`, authorization_servers: [at] });
    if (tail === ".well-known/oauth-authorization-server") {
      if (kind === "not-json") return void response.end("<html>Sign in elsewhere</html>");
      return json({
        issuer: kind === "mismatch" ? `${at}/` : at,
        authorization_endpoint: `${at}/authorize`,
        token_endpoint: `${at}/token`,
        registration_endpoint: `${at}/register`,
        ...(kind === "no-pkce" ? {} : { code_challenge_methods_supported: ["S256"] }),
        response_types_supported: ["code"],
      });
    }
    response.statusCode = 404;
    response.end();
  });
  base = server.origin;
  return server;
}

beforeAll(async () => {
  chromium = await launchChromium();
  hostile = await brokenServers();
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
      await page.fill("#endpoint-url", `${hostile.origin}/mismatch/mcp`);
      await page.click("form.connect button[type=submit]");
      const offer = page.locator(".sign-in-offer");
      await offer.getByRole("button", { name: "Sign in step by step" }).click();
      const view = page.locator(".flow-view");
      const next = view.locator(".flow-next");
      const steps = () =>
        view
          .locator(".flow-step")
          .evaluateAll((items) =>
            items.map(
              (item) => `${item.getAttribute("data-step")}:${item.getAttribute("data-status")}`,
            ),
          );
      // Each request waits for Next, which names it; its step shows once the answer is read.
      const requests = [
        ["POST", `${hostile.origin}/mismatch/mcp`, "challenge:ok"],
        [
          "GET",
          `${hostile.origin}/mismatch/.well-known/oauth-protected-resource/mcp`,
          "resource-metadata:ok",
        ],
        [
          "GET",
          `${hostile.origin}/.well-known/oauth-authorization-server/mismatch`,
          "server-metadata:failed",
        ],
      ] as const;
      const shown: string[] = [];
      for (const [method, url, outcome] of requests) {
        await expect.poll(() => next.textContent()).toBe(`Next: Send ${method} ${url}`);
        await next.click();
        shown.push(outcome);
        await expect.poll(steps).toEqual(shown);
      }
      expect(await next.count()).toBe(0);
      const failed = view.locator('.flow-step[data-status="failed"]');
      expect(await failed.getAttribute("data-step")).toBe("server-metadata");
      const words = (await failed.textContent()) ?? "";
      expect(words).toContain(
        `The metadata's issuer is \`${hostile.origin}/mismatch/\` but it was fetched for \`${hostile.origin}/mismatch\`: RFC 8414 §3.3 requires them to be identical`,
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
      expect(text).toContain(
        `> GET ${hostile.origin}/.well-known/oauth-authorization-server/mismatch`,
      );
      await view.getByRole("button", { name: "Copy as JSON" }).click();
      const json = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
        server: string;
        steps: { name: string; status: string; rule?: string; exchanges: unknown[] }[];
      };
      expect(json.server).toBe(`${hostile.origin}/mismatch/mcp`);
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
  it.each([
    {
      kind: "no-pkce",
      step: "pkce",
      words: "does not list S256 in code_challenge_methods_supported",
      fix: "The server's owner must",
    },
    {
      kind: "not-json",
      step: "server-metadata",
      words: "is not JSON",
      fix: "The server's owner must",
    },
    {
      kind: "basic",
      step: "challenge",
      words: "without a Bearer challenge in WWW-Authenticate",
      fix: "The server's owner must answer 401 with WWW-Authenticate: Bearer",
    },
  ])(
    "stops at the $step step of a server that breaks it ($kind), says so and closes the popup",
    async ({ kind, step, words, fix }) => {
      const { page, close } = await openPage(chromium.browser, `${worker()}/`);
      try {
        await page.fill("#endpoint-url", `${hostile.origin}/${kind}/mcp`);
        await page.click("form.connect button[type=submit]");
        const [popup] = await Promise.all([
          page.context().waitForEvent("page"),
          page
            .locator(".sign-in-offer")
            .getByRole("button", { name: "Sign in", exact: true })
            .click(),
        ]);
        const failed = page.locator('.flow-view .flow-step[data-status="failed"]');
        await failed.waitFor({ timeout: 30_000 });
        expect(await failed.getAttribute("data-step")).toBe(step);
        expect(await failed.textContent()).toContain(words);
        expect(await failed.locator(".flow-fix").textContent()).toContain(fix);
        await expect.poll(() => popup.isClosed()).toBe(true);
        await expect(page.locator("section.signed-in").count()).resolves.toBe(0);
      } finally {
        await close();
      }
    },
  );
});
