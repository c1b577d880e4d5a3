import { afterEach, describe, expect, it, vi } from "vitest";
import { mcpRequest } from "../../support/mcp-request.ts";
import {
  accessToken,
  authorizeUrl,
  Browser,
  fetchWorker,
  handleOf,
  ORIGIN,
  pkce,
  REDIRECT,
  register,
  signInFor,
  token,
} from "./browser.ts";

const CIMD = "https://client.example/oauth/client.json";

/** A stand-in for the internet: `documents` answers the Worker's fetches of CIMD URLs. */
function internet(documents: Record<string, () => Response | Promise<Response>>) {
  const real = globalThis.fetch;
  return vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const document = documents[url];
    return document ? Promise.resolve(document()) : real(input, init);
  });
}
afterEach(() => vi.restoreAllMocks());

const cimd = (overrides: Record<string, unknown> = {}) =>
  Response.json({
    client_id: CIMD,
    client_name: "Example client",
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: "none",
    ...overrides,
  });

async function expectRefusedPage(response: Response, words: RegExp) {
  expect(response.status).toBe(400);
  expect(response.headers.get("Location")).toBeNull();
  expect(response.headers.get("Content-Type")).toContain("text/html");
  expect(await response.text()).toMatch(words);
}

describe("the authorization request", () => {
  it("refuses a redirect URI that is not the registered one, on its own page, never redirecting", async () => {
    const browser = new Browser();
    const clientId = await register(browser);
    const { challenge } = await pkce();
    const response = await browser.fetch(
      authorizeUrl(clientId, challenge, { redirect: "http://127.0.0.1:7777/elsewhere" }),
    );
    await expectRefusedPage(response, /Start again from your app/);
  });

  it("refuses a client metadata document on a private or local address without fetching it", async () => {
    const fetched = internet({});
    const { challenge } = await pkce();
    for (const clientId of [
      "https://127.0.0.1/client.json",
      "https://10.1.2.3/client.json",
      "https://192.168.1.1/c.json",
      "https://[::1]/c.json",
      "https://intranet/c.json",
      "https://printer.local/c.json",
    ]) {
      const response = await new Browser().fetch(authorizeUrl(clientId, challenge));
      await expectRefusedPage(response, /private or local address/);
    }
    expect(fetched).not.toHaveBeenCalled();
  });

  it("accepts a document on loopback only where a loopback Worker's operator turned that on", async () => {
    const local = "https://127.0.0.1:8443/client.json";
    internet({ [local]: () => cimd({ client_id: local }) });
    const { challenge } = await pkce();
    const allowing = (vars: Record<string, string>) =>
      new Browser((request) => fetchWorker(request, vars));
    const on = { OAUTH_LOCAL_CLIENT_IDS: "on" };
    // Off by default.
    await expectRefusedPage(
      await new Browser().fetch(authorizeUrl(local, challenge)),
      /private or local address/,
    );
    // Never for a deployed Worker, whatever its variables say.
    const deployed = authorizeUrl(local, challenge, {
      resource: "https://mcp.example.com/mcp/notes",
    }).replace(ORIGIN, "https://mcp.example.com");
    await expectRefusedPage(await allowing(on).fetch(deployed), /private or local address/);
    // Only loopback: a private network's address stays refused.
    await expectRefusedPage(
      await allowing(on).fetch(authorizeUrl("https://10.1.2.3/client.json", challenge)),
      /private or local address/,
    );
    const page = await allowing(on).fetch(authorizeUrl(local, challenge));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Published by <strong>127.0.0.1</strong>");
  });

  it.each([
    ["too large", () => cimd({ client_name: "x".repeat(6000) })],
    [
      "not JSON",
      () => new Response("<html>hello</html>", { headers: { "Content-Type": "text/html" } }),
    ],
    ["for another client_id", () => cimd({ client_id: "https://client.example/other.json" })],
    ["an error status", () => new Response("gone", { status: 404 })],
  ])("refuses a client metadata document that is %s", async (_what, document) => {
    internet({ [CIMD]: document });
    const { challenge } = await pkce();
    const response = await new Browser().fetch(authorizeUrl(CIMD, challenge));
    await expectRefusedPage(response, /could not be verified/);
  });

  it(
    "refuses a client metadata document that does not arrive within the library's 10 s",
    { timeout: 30_000 },
    async () => {
      internet({
        [CIMD]: () =>
          new Response(new ReadableStream({ start: () => undefined }), {
            headers: { "Content-Type": "application/json" },
          }),
      });
      const { challenge } = await pkce();
      const response = await new Browser().fetch(authorizeUrl(CIMD, challenge));
      await expectRefusedPage(response, /could not be verified/);
    },
  );

  it("shows a client metadata document's host, flagged until the operator lists it as known", async () => {
    internet({ [CIMD]: () => cimd() });
    const { challenge } = await pkce();
    const unknown = await (await new Browser().fetch(authorizeUrl(CIMD, challenge))).text();
    expect(unknown).toContain("Published by <strong>client.example</strong>");
    expect(unknown).toContain("Unknown app host");
    const known = new Browser((request) =>
      fetchWorker(request, { OAUTH_KNOWN_CLIENT_HOSTS: "client.example" }),
    );
    const page = await (await known.fetch(authorizeUrl(CIMD, challenge))).text();
    expect(page).toContain("Published by <strong>client.example</strong>");
    expect(page).not.toContain("Unknown app host");
  });
});

describe("the consent page", () => {
  it("cannot be framed, cached or scripted", async () => {
    const browser = new Browser();
    const clientId = await register(browser);
    const { challenge } = await pkce();
    const response = await browser.fetch(authorizeUrl(clientId, challenge));
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
    expect(response.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    expect(await response.text()).not.toContain("<script");
  });

  it("escapes what the client says about itself", async () => {
    const browser = new Browser();
    const clientId = await register(browser, '<img src=x onerror="alert(1)">');
    const { challenge } = await pkce();
    const html = await (await browser.fetch(authorizeUrl(clientId, challenge))).text();
    expect(html).not.toContain("<img");
    expect(html).toContain("&#60;img src=x onerror=&#34;alert(1)&#34;&#62;");
  });

  it("refuses a consent posted from another browser (the handle without its cookie): CSRF", async () => {
    const browser = new Browser();
    const clientId = await register(browser);
    const { challenge } = await pkce();
    const handle = handleOf(await (await browser.fetch(authorizeUrl(clientId, challenge))).text());
    const forged = await new Browser().post(`${ORIGIN}/authorize`, {
      handle,
      decision: "allow",
      user: "alice",
    });
    await expectRefusedPage(forged, /Start again from your app/);
  });

  it("sends a denial back to the client with access_denied, its state and the issuer", async () => {
    const browser = new Browser();
    const clientId = await register(browser);
    const { challenge } = await pkce();
    const handle = handleOf(await (await browser.fetch(authorizeUrl(clientId, challenge))).text());
    const denied = await browser.post(`${ORIGIN}/authorize`, { handle, decision: "deny" });
    expect(denied.status).toBe(302);
    const location = new URL(denied.headers.get("Location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      error: "access_denied",
      state: "state-1",
      iss: ORIGIN,
    });
  });

  it("refuses a user the development login does not offer", async () => {
    const browser = new Browser();
    const clientId = await register(browser);
    const { challenge } = await pkce();
    const handle = handleOf(await (await browser.fetch(authorizeUrl(clientId, challenge))).text());
    const response = await browser.post(`${ORIGIN}/authorize`, {
      handle,
      decision: "allow",
      user: "mallory",
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("Location")).toBeNull();
  });

  it("offers the development login only on loopback or when OAUTH_DEV_LOGIN is on", async () => {
    const origin = "https://mcp.example.com";
    const registerAt = async (browser: Browser) => {
      const response = await browser.fetch(`${origin}/oauth/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          client_name: "App",
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: "none",
        }),
      });
      return ((await response.json()) as { client_id: string }).client_id;
    };
    const { challenge } = await pkce();
    const url = (clientId: string) =>
      authorizeUrl(clientId, challenge, { resource: `${origin}/mcp/notes` }).replace(
        ORIGIN,
        origin,
      );
    const deployed = new Browser();
    const closed = await deployed.fetch(url(await registerAt(deployed)));
    expect(closed.status).toBe(503);
    expect(await closed.text()).toContain("Sign-in is not set up");
    const enabled = new Browser((request) => fetchWorker(request, { OAUTH_DEV_LOGIN: "on" }));
    const open = await enabled.fetch(url(await registerAt(enabled)));
    expect(open.status).toBe(200);
    expect(await open.text()).toContain("development login");
  });
});

describe("the token endpoint", () => {
  async function codeAndVerifier() {
    const browser = new Browser();
    const clientId = await register(browser);
    const { verifier, challenge } = await pkce();
    const code = await signInFor(browser, clientId, challenge);
    const fields = {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
    };
    return { browser, fields, verifier };
  }

  it("refuses a client metadata document on a private address named at the token endpoint, without fetching it", async () => {
    const fetched = internet({});
    const browser = new Browser();
    const privateId = "https://10.0.0.7/client.json";
    const basic = btoa(`${encodeURIComponent("https://192.168.0.2/c.json")}:secret`);
    for (const response of [
      await browser.post(`${ORIGIN}/oauth/token`, {
        grant_type: "authorization_code",
        code: "x:y:z",
        client_id: privateId,
      }),
      await browser.fetch(`${ORIGIN}/oauth/token`, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Authorization: `Basic ${basic}`,
        },
        body: "grant_type=refresh_token&refresh_token=a",
      }),
    ]) {
      expect(response.status).toBe(401);
      const body = (await response.json()) as Record<string, string>;
      expect(body.error).toBe("invalid_client");
      expect(body.error_description).toMatch(/private or local address/);
    }
    expect(fetched).not.toHaveBeenCalled();
  });

  it("refuses a token request larger than any token request, before the library reads it", async () => {
    const response = await new Browser().post(`${ORIGIN}/oauth/token`, {
      grant_type: "authorization_code",
      code: "x".repeat(20_000),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as Record<string, string>).error).toBe("invalid_request");
  });

  it("refuses a code used a second time", async () => {
    const { browser, fields, verifier } = await codeAndVerifier();
    expect((await token(browser, { ...fields, code_verifier: verifier })).status).toBe(200);
    const replay = await token(browser, { ...fields, code_verifier: verifier });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe("invalid_grant");
  });

  it("refuses a code with the wrong PKCE verifier", async () => {
    const { browser, fields } = await codeAndVerifier();
    const wrong = await token(browser, { ...fields, code_verifier: "x".repeat(43) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_grant");
  });

  it("refreshes a token, and a revoked token gets 401 invalid_token at the endpoint", async () => {
    const signedIn = await accessToken();
    const refreshed = await token(signedIn.browser, {
      grant_type: "refresh_token",
      refresh_token: signedIn.refresh,
      client_id: signedIn.clientId,
    });
    expect(refreshed.status).toBe(200);
    const access = String(refreshed.body.access_token);
    const list = () =>
      fetchWorker(
        mcpRequest(
          "tools/list",
          {},
          { server: "notes", headers: { Authorization: `Bearer ${access}` } },
        ),
      );
    expect((await list()).status).toBe(200);
    const revoked = await signedIn.browser.post(`${ORIGIN}/oauth/token`, {
      token: access,
      token_type_hint: "access_token",
      client_id: signedIn.clientId,
    });
    expect(revoked.status).toBe(200);
    const after = await list();
    expect(after.status).toBe(401);
    expect(after.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
  });
});
