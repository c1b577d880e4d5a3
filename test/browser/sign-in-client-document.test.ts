import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartedWorker } from "../support/start-worker.ts";
import { launchChromium, type Chromium } from "./chromium.ts";
import { catalogOf, endedCall } from "./playground.ts";

// The playground deployed on https names itself with its own Client ID Metadata Document. Here
// the Worker itself is served over HTTPS on loopback (a certificate made for 127.0.0.1, trusted
// by workerd through NODE_EXTRA_CA_CERTS, read when wrangler loads, and by this test's Chromium),
// and told to accept documents on loopback (OAUTH_LOCAL_CLIENT_IDS): its authorization server
// fetches the page's document from the page's own origin.
let folder: string;
let worker: StartedWorker;
let chromium: Chromium;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "edgemcp-page-cimd-"));
  const [keyPath, certPath] = [join(folder, "key.pem"), join(folder, "cert.pem")];
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
      .concat(["-keyout", keyPath, "-out", certPath, "-days", "1", "-subj", "/CN=127.0.0.1"])
      .concat(["-addext", "subjectAltName=IP:127.0.0.1"]),
    { stdio: "ignore" },
  );
  process.env.NODE_EXTRA_CA_CERTS = certPath;
  // Loaded now, so that wrangler's runtime reads the certificate above.
  const { startWorker } = await import("../support/start-worker.ts");
  worker = await startWorker({ OAUTH_LOCAL_CLIENT_IDS: "on" }, { keyPath, certPath });
  chromium = await launchChromium();
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await worker?.stop();
  await rm(folder, { recursive: true, force: true });
});

describe("the playground on https", () => {
  it("signs in with its Client ID Metadata Document as its client id, registering nothing, and calls a tool", async () => {
    const origin = worker.url.origin;
    expect(origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const context = await chromium.browser.newContext({
      viewport: { width: 1280, height: 800 },
      ignoreHTTPSErrors: true,
    });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      const sent: string[] = [];
      context.on("request", (request) => {
        const url = new URL(request.url());
        sent.push(`${request.method()} ${url.pathname}`);
      });
      await page.goto(`${origin}/`);
      await page.locator("#dev-token").selectOption("");
      await page.fill("#endpoint-url", `${origin}/mcp/notes`);
      await page.click("form.connect button[type=submit]");
      await catalogOf(page, `${origin}/mcp/notes`);

      const [popup] = await Promise.all([
        context.waitForEvent("page"),
        page.locator(".anonymous-note").getByRole("button", { name: "Sign in" }).click(),
      ]);
      await popup.waitForURL(/\/authorize\?/);
      const document = `${origin}/api/playground-client`;
      expect(new URL(popup.url()).searchParams.get("client_id")).toBe(document);
      // The consent page names the page by its document, fetched from the page's origin.
      expect(await popup.locator("h1").textContent()).toContain("edgemcp playground");
      expect(await popup.locator("main").textContent()).toContain("Published by");
      await popup.check("input[value=alice]");
      await popup.click("button[value=allow]");

      const bar = page.locator("section.signed-in");
      await bar.waitFor({ timeout: 30_000 });
      expect(await bar.textContent()).toContain(`client ${document}`);
      expect(sent.filter((line) => line.endsWith("/register"))).toEqual([]);

      await page.fill("#catalog-search", "create_note");
      await page.locator('[data-key="tool:create_note"]').click();
      await page.fill("#f_title", "Over https");
      await page.fill("#f_body", "named by its document");
      await page.click('[data-action="send"]');
      expect(await endedCall(page)).toMatch(/Created note \d+/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
