/**
 * The person at the browser, for a client's sign-in: opens the authorization URL the client
 * hands over, picks a demo user on the Worker's page, allows, and returns the code the redirect
 * carries (the client's redirect URI is never loaded). Cookies are kept as a browser keeps them.
 */
export async function consentAs(
  authorizationUrl: URL,
  user = "alice",
): Promise<{ code: string; callback: URLSearchParams; scopes: string[] }> {
  const send = browser();
  const page = await send(authorizationUrl.href);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`The sign-in page answered ${page.status}: ${html}`);
  const answer = await send(new URL("/authorize", authorizationUrl).href, consentForm(html, user));
  const location = answer.headers.get("Location");
  const callback = new URL(location ?? "http://invalid/").searchParams;
  const code = callback.get("code");
  if (answer.status !== 302 || !code) throw new Error(`Consent answered ${answer.status}.`);
  return { code, callback, scopes: (authorizationUrl.searchParams.get("scope") ?? "").split(" ") };
}

/** The consent form of a sign-in page, answered Allow as `user`. */
export function consentForm(html: string, user: string): RequestInit {
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1];
  if (!handle) throw new Error("The sign-in page has no consent form.");
  return {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ handle, decision: "allow", user }).toString(),
  };
}

/** A browser's fetch: redirects not followed, cookies kept and sent back. */
export function browser(): (url: string, init?: RequestInit) => Promise<Response> {
  const cookies = new Map<string, string>();
  return async (url, init = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size > 0)
      headers.set("Cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const eq = pair.indexOf("=");
      cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return response;
  };
}

/**
 * What an OAuth client provider of either SDK keeps (client, tokens, verifier) in memory, and
 * its redirect: sign-in driven by `consentAs`, the code kept for `finishAuth`.
 */
export class DrivenProvider {
  readonly redirectUrl = "http://127.0.0.1:7777/callback";
  client: { client_id: string; client_secret?: string } | undefined;
  saved: { access_token: string; scope?: string; refresh_token?: string } | undefined;
  verifier = "";
  /** The code of the last sign-in, its whole redirect's parameters, and the scopes it asked for. */
  code = "";
  callback = new URLSearchParams();
  asked: string[] = [];
  authorizations = 0;
  /** `keepRefresh: false` keeps no refresh token, as a host that signs in again instead. */
  constructor(readonly options: { keepRefresh?: boolean } = {}) {}

  get clientMetadata() {
    return {
      client_name: "edgemcp sign-in test",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: { client_id: string }) {
    this.client = client;
  }
  tokens() {
    return this.saved as never;
  }
  saveTokens(tokens: { access_token: string; scope?: string; refresh_token?: string }) {
    const { refresh_token: refresh, ...rest } = tokens;
    this.saved = this.options.keepRefresh === false ? rest : { ...rest, refresh_token: refresh };
  }
  async redirectToAuthorization(url: URL) {
    this.authorizations += 1;
    const { code, callback, scopes } = await consentAs(url);
    this.code = code;
    this.callback = callback;
    this.asked = scopes;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}
