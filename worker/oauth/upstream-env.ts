import { authorizationErrorRedirect, type AuthRequest } from "@cloudflare/workers-oauth-provider";
import * as oauth from "oauth4webapi";
import { readVar } from "../env-vars.ts";
import { isLocalHost } from "../http/origin.ts";
import { PATHS } from "./server.ts";
import { sessionCookie } from "./session.ts";
import type { Upstream } from "./upstream.ts";

const GITHUB: oauth.AuthorizationServer = {
  issuer: "https://github.com",
  authorization_endpoint: "https://github.com/login/oauth/authorize",
  token_endpoint: "https://github.com/login/oauth/access_token",
  userinfo_endpoint: "https://api.github.com/user",
};

type Settings = { kind: "github" | "oidc"; issuer: URL; client: oauth.Client; secret: string };

/**
 * The upstream provider the Worker's variables configure: `OAUTH_UPSTREAM` is `github` or an
 * OpenID Connect issuer URL (https; http only on loopback), with the app registered there as
 * `OAUTH_UPSTREAM_CLIENT_ID` and `OAUTH_UPSTREAM_CLIENT_SECRET` (secrets) and its callback
 * `https://<host>/oauth/callback`. Undefined when `OAUTH_UPSTREAM` is unset; a half-set one
 * throws, naming what is missing.
 */
export function upstreamFromEnv(env: Cloudflare.Env): Upstream | undefined {
  const settings = settingsOf(env);
  if (!settings) return undefined;
  // Kept per isolate and settings: the provider's metadata is fetched once, not per sign-in.
  const key = `${settings.issuer.href} ${settings.client.client_id} ${settings.secret}`;
  const known = upstreams.get(key);
  if (known) return known;
  const upstream = upstreamOf(env, settings);
  if (upstreams.size >= 4) upstreams.clear();
  upstreams.set(key, upstream);
  return upstream;
}

const upstreams = new Map<string, Upstream>();

function upstreamOf(env: Cloudflare.Env, settings: Settings): Upstream {
  const insecure = settings.issuer.protocol === "http:";
  const options = { [oauth.allowInsecureRequests]: insecure };
  let metadata: Promise<oauth.AuthorizationServer> | undefined;
  const server = () =>
    (metadata ??=
      settings.kind === "github"
        ? Promise.resolve(GITHUB)
        : oauth
            .discoveryRequest(settings.issuer, { ...options, algorithm: "oidc" })
            .then((response) => oauth.processDiscoveryResponse(settings.issuer, response))
            .catch((error: unknown) => {
              metadata = undefined;
              throw error;
            }));
  const name =
    readVar(env, "OAUTH_UPSTREAM_NAME") ??
    (settings.kind === "github" ? "GitHub" : settings.issuer.host);
  return {
    name,
    async begin(request, helpers, approved, headers) {
      const as = await server();
      const verifier = oauth.generateRandomCodeVerifier();
      const nonce = oauth.generateRandomNonce();
      const started = await helpers.beginUpstream(approved, { data: { verifier, nonce }, headers });
      const target = new URL(as.authorization_endpoint ?? "");
      target.search = new URLSearchParams({
        client_id: settings.client.client_id,
        redirect_uri: callbackOf(request),
        response_type: "code",
        scope: settings.kind === "github" ? "read:user" : "openid profile email",
        state: started.state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        ...(settings.kind === "oidc" ? { nonce } : {}),
      }).toString();
      started.headers.set("Location", target.href);
      return new Response(null, { status: 302, headers: started.headers });
    },
    async finish(request, helpers) {
      const resumed = await helpers.finishUpstream<{ verifier: string; nonce: string }>(request);
      const url = new URL(request.url);
      if (url.searchParams.has("error")) return back(resumed, "access_denied");
      const as = await server();
      const params = oauth.validateAuthResponse(
        as,
        settings.client,
        url,
        url.searchParams.get("state") ?? "",
      );
      const auth = oauth.ClientSecretPost(settings.secret);
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        settings.client,
        auth,
        params,
        callbackOf(request),
        resumed.data.verifier,
        options,
      );
      // An OpenID provider's answer carries an ID token, checked against the nonce; a plain OAuth
      // one (GitHub) carries none, and the user info endpoint says who signed in.
      const body: unknown = await response
        .clone()
        .json()
        .catch(() => undefined);
      const idToken = typeof body === "object" && body !== null && "id_token" in body;
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        settings.client,
        response,
        idToken ? { expectedNonce: resumed.data.nonce, requireIdToken: true } : {},
      );
      const who = await identity(as, settings, tokens, options);
      const { redirectTo } = await helpers.completeAuthorization({
        request: resumed.request,
        userId: who.userId,
        metadata: { name: who.name, login: settings.kind },
        scope: resumed.request.scope,
        props: { name: who.name, ...(who.email ? { email: who.email } : {}), login: settings.kind },
      });
      resumed.headers.set("Location", redirectTo);
      resumed.headers.append("Set-Cookie", await sessionCookie(env, who.userId));
      return new Response(null, { status: 302, headers: resumed.headers });
    },
  };
}

/** The signed-in person, from the ID token or the user info endpoint. */
async function identity(
  as: oauth.AuthorizationServer,
  settings: Settings,
  tokens: oauth.TokenEndpointResponse,
  options: { [oauth.allowInsecureRequests]: boolean },
): Promise<{ userId: string; name: string; email?: string }> {
  const claims = oauth.getValidatedIdTokenClaims(tokens);
  const info = await oauth.userInfoRequest(as, settings.client, tokens.access_token, {
    ...options,
    headers: { "User-Agent": "edgemcp", Accept: "application/json" },
  });
  if (settings.kind === "github") {
    const user = (await info.json()) as { id?: unknown; login?: unknown; name?: unknown };
    if (typeof user.id !== "number") throw new Error("GitHub's /user answer has no id.");
    return { userId: `github-${user.id}`, name: String(user.name ?? user.login ?? user.id) };
  }
  const profile = await oauth.processUserInfoResponse(
    as,
    settings.client,
    claims?.sub ?? oauth.skipSubjectCheck,
    info,
  );
  const name = [profile.name, profile.preferred_username, profile.email, profile.sub].find(
    (value): value is string => typeof value === "string" && value !== "",
  );
  // A user id may not hold ":" (the library's token format): the subject is percent-encoded.
  return {
    userId: encodeURIComponent(profile.sub),
    name: name ?? profile.sub,
    ...(typeof profile.email === "string" ? { email: profile.email } : {}),
  };
}

function back(
  resumed: { request: AuthRequest; headers: Headers },
  code: "access_denied",
): Response {
  resumed.headers.set("Location", authorizationErrorRedirect(resumed.request, code));
  return new Response(null, { status: 302, headers: resumed.headers });
}

function callbackOf(request: Request): string {
  return `${new URL(request.url).origin}${PATHS.callback}`;
}

function settingsOf(env: Cloudflare.Env): Settings | undefined {
  const upstream = readVar(env, "OAUTH_UPSTREAM")?.trim();
  if (!upstream) return undefined;
  const clientId = readVar(env, "OAUTH_UPSTREAM_CLIENT_ID")?.trim();
  const secret = readVar(env, "OAUTH_UPSTREAM_CLIENT_SECRET")?.trim();
  if (!clientId || !secret)
    throw new Error(
      "OAUTH_UPSTREAM is set but OAUTH_UPSTREAM_CLIENT_ID or OAUTH_UPSTREAM_CLIENT_SECRET is not: set both (npx wrangler secret put).",
    );
  const client: oauth.Client = { client_id: clientId };
  if (upstream === "github")
    return { kind: "github", issuer: new URL(GITHUB.issuer), client, secret };
  let issuer: URL;
  try {
    issuer = new URL(upstream);
  } catch {
    throw new Error('OAUTH_UPSTREAM must be "github" or an OpenID Connect issuer URL.');
  }
  if (
    issuer.protocol !== "https:" &&
    !(issuer.protocol === "http:" && isLocalHost(issuer.hostname))
  )
    throw new Error("OAUTH_UPSTREAM must be an https URL (http only on loopback).");
  return { kind: "oidc", issuer, client, secret };
}
