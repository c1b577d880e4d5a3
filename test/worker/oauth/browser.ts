import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../../worker/index.ts";

/** The demo Worker, called in-process; `vars` on top of the test bindings. */
export async function fetchWorker(
  request: Request,
  vars: Record<string, string> = {},
): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** A browser's part of sign-in: it keeps the cookies the Worker sets, and sends them back. */
export class Browser {
  readonly cookies = new Map<string, string>();
  /** `send` serves a request: the demo Worker unless given. */
  constructor(readonly send: (request: Request) => Promise<Response> = (r) => fetchWorker(r)) {}

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0)
      headers.set(
        "Cookie",
        [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
      );
    const response = await this.send(new Request(url, { ...init, headers, redirect: "manual" }));
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      if (/max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1).trim());
    }
    return response;
  }

  /** Posts the consent form of `page` (its handle) with these fields. */
  post(url: string, fields: Record<string, string>): Promise<Response> {
    return this.fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

/** The consent form's handle, as the page carries it. */
export function handleOf(html: string): string {
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1];
  if (!handle) throw new Error("The page has no consent form.");
  return handle;
}

/** PKCE (RFC 7636): a verifier and its S256 challenge. */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export const ORIGIN = "http://localhost";
export const REDIRECT = "http://127.0.0.1:7777/callback";

/** A public client registered dynamically (RFC 7591). */
export async function register(browser: Browser, name = "Test app"): Promise<string> {
  const response = await browser.fetch(`${ORIGIN}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
    }),
  });
  if (response.status !== 201) throw new Error(`registration: ${response.status}`);
  const body = (await response.json()) as { client_id: string };
  return body.client_id;
}

/** The authorization URL for a client, a resource and scopes. */
export function authorizeUrl(
  clientId: string,
  challenge: string,
  options: { resource?: string; scope?: string; state?: string; redirect?: string } = {},
): string {
  const params = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: options.redirect ?? REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: options.state ?? "state-1",
    resource: options.resource ?? `${ORIGIN}/mcp/notes`,
    scope: options.scope ?? "mcp",
  });
  return `${ORIGIN}/authorize?${params.toString()}`;
}

/** Signs in through the development login and consents; the code from the redirect. */
export async function signInFor(
  browser: Browser,
  clientId: string,
  challenge: string,
  options: { resource?: string; scope?: string; user?: string } = {},
): Promise<string> {
  const page = await browser.fetch(authorizeUrl(clientId, challenge, options));
  if (page.status !== 200) throw new Error(`authorize: ${page.status} ${await page.text()}`);
  const answer = await browser.post(`${ORIGIN}/authorize`, {
    handle: handleOf(await page.text()),
    decision: "allow",
    user: options.user ?? "alice",
  });
  const location = answer.headers.get("Location");
  if (answer.status !== 302 || !location) throw new Error(`consent: ${answer.status}`);
  const code = new URL(location).searchParams.get("code");
  if (!code) throw new Error(`consent redirect without a code: ${location}`);
  return code;
}

/** Exchanges a code (or refreshes) at the token endpoint. */
export async function token(
  browser: Browser,
  fields: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await browser.post(`${ORIGIN}/oauth/token`, fields);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A whole sign-in: register, authorize as a demo user, exchange the code. */
export async function accessToken(
  options: { resource?: string; scope?: string; user?: string } = {},
  browser = new Browser(),
): Promise<{ access: string; refresh: string; clientId: string; browser: Browser }> {
  const clientId = await register(browser);
  const { verifier, challenge } = await pkce();
  const code = await signInFor(browser, clientId, challenge, options);
  const { status, body } = await token(browser, {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    client_id: clientId,
    resource: options.resource ?? `${ORIGIN}/mcp/notes`,
  });
  if (status !== 200) throw new Error(`token: ${status} ${JSON.stringify(body)}`);
  return {
    access: String(body.access_token),
    refresh: String(body.refresh_token),
    clientId,
    browser,
  };
}
