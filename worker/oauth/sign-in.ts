import {
  AuthorizationError,
  type OAuthAuthorizationServer,
} from "@cloudflare/workers-oauth-provider";
import type { Authenticate } from "../auth/bearer.ts";
import { metadataResponse, protectedResourceMetadata } from "../auth/metadata.ts";
import { issuedTokens, type RecentTokens } from "./authenticate.ts";
import { checkedTokenRequest } from "./client-id.ts";
import { authorize, refusal } from "./authorize.ts";
import { grants } from "./grants.ts";
import type { SignInOptions } from "./options.ts";
import { messagePage } from "./page.ts";
import { PATHS, serverFor } from "./server.ts";
import type { Upstream } from "./upstream.ts";

/** A Worker's sign-in: its authorization server's routes, and the callers its tokens make. */
export type SignIn = {
  /**
   * Callers with this server's tokens, for the endpoint each request went to (the token's
   * audience); any other credential goes to `next` (`bearerTokens(...)`, `jwtBearer()`).
   */
  authenticate(next?: Authenticate): Authenticate;
  /**
   * Serves the authorization server (route `paths` here, before anything else), and each
   * endpoint's RFC 9728 metadata naming it (for a Worker that has no other issuer to name).
   */
  fetch(request: Request, env: Cloudflare.Env, ctx: ExecutionContext): Promise<Response>;
  /**
   * The paths `fetch` answers (Hono-style patterns): the authorization server's, and each
   * endpoint's RFC 9728 metadata.
   */
  paths: readonly string[];
  /** Whether `fetch` answers a path: the authorization server's, or an endpoint's metadata. */
  serves(pathname: string): boolean;
  /**
   * What an endpoint's RFC 9728 metadata names: this server as `authorization_servers`, and the
   * endpoint's baseline scopes as `scopes_supported`. Undefined for a path it does not protect.
   */
  metadataFor(
    origin: string,
    path: string,
  ): { authorizationServers: string[]; scopes: string[] } | undefined;
};

/**
 * An OAuth 2.1 authorization server in this Worker (`@cloudflare/workers-oauth-provider`, on
 * the KV namespace bound as `OAUTH_KV`) whose resources are the given MCP endpoints: discovery,
 * dynamic registration, Client ID Metadata Documents, PKCE, tokens, refresh, revocation, and the
 * sign-in and consent page.
 */
export function signIn(
  options: SignInOptions,
  upstreamOf: (env: Cloudflare.Env) => Upstream | undefined = () => undefined,
): SignIn {
  for (const endpoint of options.endpoints)
    if (!/^\/\S*[^/]$/.test(endpoint.path))
      throw new TypeError(
        `signIn: an endpoint's path starts with "/" and has no trailing "/", not ${JSON.stringify(endpoint.path)}.`,
      );
  const binding = options.authorizationServerBinding;
  if (binding !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(binding))
    throw new TypeError(
      `signIn: authorizationServerBinding names a binding (letters, digits, "_"), not ${JSON.stringify(binding)}.`,
    );
  const cache = new Map<string, OAuthAuthorizationServer>();
  const server = (origin: string) => serverFor(options, cache, origin);
  const recent: RecentTokens = new Map();
  const metadataPaths = new Map(
    options.endpoints.map((endpoint) => [PATHS.resourceMetadata + endpoint.path, endpoint]),
  );
  const metadataFor: SignIn["metadataFor"] = (origin, path) => {
    const endpoint = options.endpoints.find((candidate) => candidate.path === path);
    if (!endpoint) return undefined;
    return { authorizationServers: [origin], scopes: [...(endpoint.baseline ?? [])] };
  };
  return {
    authenticate: (next) => issuedTokens(options, server, recent, next),
    async fetch(request, env, ctx) {
      const url = new URL(request.url);
      const described = metadataPaths.get(url.pathname.replace(/\/+$/, ""));
      if (described)
        return metadataResponse(
          protectedResourceMetadata(url.origin + described.path, {
            ...metadataFor(url.origin, described.path),
            name: described.name,
          }),
        );
      if (binding !== undefined) return forward(request, env, binding);
      if (typeof Reflect.get(env, "OAUTH_KV") !== "object")
        return messagePage(
          500,
          "Sign-in is misconfigured",
          "Sign-in needs a KV namespace bound as OAUTH_KV (wrangler.toml, [[kv_namespaces]]).",
        );
      const as = server(url.origin);
      const oauth = as.getOAuthApi(env);
      let upstream: Upstream | undefined;
      try {
        upstream = upstreamOf(env);
      } catch (error) {
        return messagePage(500, "Sign-in is misconfigured", errorText(error));
      }
      if (url.pathname === PATHS.grants) return grants(request, env, oauth, options);
      if (url.pathname === PATHS.authorize)
        return authorize(request, { options, oauth, env, upstream });
      if (url.pathname === PATHS.callback) {
        if (!upstream) return messagePage(404, "Not found", "No upstream provider is configured.");
        try {
          return await upstream.finish(request, oauth);
        } catch (error) {
          if (error instanceof AuthorizationError) return refusal(error);
          // The provider's own words may hold tokens or internals: logged, not shown.
          console.warn(`Upstream sign-in failed: ${errorText(error)}`);
          return messagePage(
            502,
            "The sign-in provider's answer could not be used",
            "Signing in through the provider did not complete. Start again from your app.",
          );
        }
      }
      if (url.pathname === PATHS.token && request.method === "POST") {
        const checked = await checkedTokenRequest(request, env);
        if ("refusal" in checked) return checked.refusal;
        return as.fetch(checked.request, env, ctx);
      }
      return as.fetch(request, env, ctx);
    },
    paths: [PATHS.authorize, "/oauth/*", `${PATHS.metadata}*`, ...metadataPaths.keys()],
    serves: (pathname) =>
      pathname === PATHS.authorize ||
      pathname.startsWith("/oauth/") ||
      pathname.startsWith(PATHS.metadata) ||
      metadataPaths.has(pathname.replace(/\/+$/, "")),
    metadataFor,
  };
}

/**
 * The authorization server's paths, served by the Worker behind a service binding. The request
 * goes as it came: that Worker takes the issuer and the resources from its URL, so what it
 * issues is for this Worker's endpoints, and its pages and cookies are this origin's.
 */
async function forward(request: Request, env: Cloudflare.Env, binding: string): Promise<Response> {
  const service: unknown = Reflect.get(env, binding);
  if (!isFetcher(service))
    return messagePage(
      500,
      "Sign-in is misconfigured",
      `Sign-in is served by another Worker through a service binding named ${binding} (wrangler.toml, [[services]]), and none is bound.`,
    );
  return service.fetch(request);
}

function isFetcher(value: unknown): value is Fetcher {
  return (
    typeof value === "object" && value !== null && typeof Reflect.get(value, "fetch") === "function"
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
