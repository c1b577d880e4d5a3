import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpRequest } from "../../support/mcp-request.ts";
import { startWorker, type StartedWorker } from "../../support/start-worker.ts";
import { browser, consentForm } from "./sign-in.ts";
import { startUpstreamProvider, UPSTREAM_USER } from "./upstream-provider.ts";

const REDIRECT = "http://127.0.0.1:7777/callback";
const SECRET = randomBytes(24).toString("hex");

let upstream: Awaited<ReturnType<typeof startUpstreamProvider>>;
let worker: StartedWorker;
let base: string;

// The Worker signs people in through an upstream provider: the SDK's authorization server on
// loopback, with its own client registration for the Worker.
beforeAll(async () => {
  upstream = await startUpstreamProvider();
  worker = await startWorker({
    OAUTH_UPSTREAM: upstream.issuer,
    OAUTH_UPSTREAM_NAME: "Example ID",
    OAUTH_UPSTREAM_CLIENT_ID: "edgemcp-worker",
    OAUTH_UPSTREAM_CLIENT_SECRET: SECRET,
  });
  base = worker.url.origin;
  await upstream.registerClient("edgemcp-worker", SECRET, `${base}/oauth/callback`);
}, 90_000);
afterAll(async () => {
  await worker?.stop();
  await upstream?.close();
});

/** An MCP client registered at the Worker, and the start of its sign-in in a fresh browser. */
async function startSignIn() {
  const registered = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: "Host app",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
    }),
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const params = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "host-state",
    resource: `${base}/mcp/notes`,
    scope: "mcp",
  });
  const send = browser();
  const page = await send(`${base}/authorize?${params.toString()}`);
  const html = await page.text();
  return { send, html, clientId, verifier };
}

describe("sign-in through an upstream OpenID provider", () => {
  it("offers it on the page, goes there after consent, and comes back with the provider's user", async () => {
    const { send, html, clientId, verifier } = await startSignIn();
    expect(html).toContain("Sign in with Example ID");
    const toProvider = await send(`${base}/authorize`, consentForm(html, "upstream"));
    expect(toProvider.status).toBe(302);
    const providerUrl = new URL(toProvider.headers.get("Location") ?? "");
    expect(providerUrl.href.startsWith(`${upstream.issuer}authorize?`)).toBe(true);
    expect(providerUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(providerUrl.searchParams.get("redirect_uri")).toBe(`${base}/oauth/callback`);

    const back = await fetch(providerUrl, { redirect: "manual" });
    const callback = back.headers.get("Location") ?? "";
    expect(callback.startsWith(`${base}/oauth/callback?`)).toBe(true);
    const done = await send(callback);
    expect(done.status).toBe(302);
    const location = new URL(done.headers.get("Location") ?? "");
    expect(location.searchParams.get("state")).toBe("host-state");
    expect(upstream.tokensIssued()).toBeGreaterThan(0);

    const exchanged = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: location.searchParams.get("code") ?? "",
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: clientId,
        resource: `${base}/mcp/notes`,
      }).toString(),
    });
    const tokens = (await exchanged.json()) as { access_token: string };
    // The library's tokens start with the user id: the provider's subject, percent-encoded.
    expect(tokens.access_token.split(":")[0]).toBe(encodeURIComponent(UPSTREAM_USER.sub));
    const created = await fetch(
      new Request(
        `${base}/mcp/notes`,
        mcpRequest(
          "tools/call",
          { name: "create_note", arguments: { title: "Upstream", body: "x" } },
          { server: "notes", headers: { Authorization: `Bearer ${tokens.access_token}` } },
        ),
      ),
    );
    expect(created.status).toBe(200);
  });

  it("refuses the provider's redirect replayed, or opened in another browser", async () => {
    const { send, html } = await startSignIn();
    const toProvider = await send(`${base}/authorize`, consentForm(html, "upstream"));
    const back = await fetch(toProvider.headers.get("Location") ?? "", { redirect: "manual" });
    const callback = back.headers.get("Location") ?? "";
    const elsewhere = await browser()(callback);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get("Location")).toBeNull();
    expect((await send(callback)).status).toBe(302);
    const replayed = await send(callback);
    expect(replayed.status).toBe(400);
    expect(replayed.headers.get("Location")).toBeNull();
  });

  it("sends the client access_denied when the provider answers with an error", async () => {
    const { send, html } = await startSignIn();
    const toProvider = await send(`${base}/authorize`, consentForm(html, "upstream"));
    const state = new URL(toProvider.headers.get("Location") ?? "").searchParams.get("state") ?? "";
    const refused = await send(`${base}/oauth/callback?error=access_denied&state=${state}`);
    expect(refused.status).toBe(302);
    const location = new URL(refused.headers.get("Location") ?? "");
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe("host-state");
  });
});
