import { OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import type { SignInOptions } from "./options.ts";

/** Where the authorization server's own endpoints live on the Worker. */
export const PATHS = {
  authorize: "/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  callback: "/oauth/callback",
  grants: "/oauth/grants",
  metadata: "/.well-known/oauth-authorization-server",
  /** RFC 9728: an endpoint's metadata is this plus the endpoint's path. */
  resourceMetadata: "/.well-known/oauth-protected-resource",
} as const;

// One server per origin the Worker is reached at (its workers.dev name, a custom domain,
// localhost): the issuer and the resources are absolute URLs fixed at construction. Bounded, as
// anything keyed by what a request says.
const MAX_ORIGINS = 8;

/** The authorization server of one origin, built once per isolate. */
export function serverFor(
  options: SignInOptions,
  cache: Map<string, OAuthAuthorizationServer>,
  origin: string,
): OAuthAuthorizationServer {
  const known = cache.get(origin);
  if (known) return known;
  const server = new OAuthAuthorizationServer({
    issuer: origin,
    resources: options.endpoints.map((endpoint) => origin + endpoint.path),
    authorizeEndpoint: PATHS.authorize,
    tokenEndpoint: PATHS.token,
    clientRegistrationEndpoint: PATHS.register,
    scopesSupported: [...Object.keys(options.scopes), "offline_access"],
    clientIdMetadataDocumentEnabled: true,
    accessTokenTTL: options.accessTokenTtlSeconds ?? 3600,
    refreshTokenTTL: options.refreshTokenTtlSeconds ?? 30 * 24 * 3600,
    // The library logs every refused token request by default; refusals are the caller's
    // business, answered on the wire, and a log line per bad request is a way to flood logs.
    onError: () => undefined,
  });
  if (cache.size >= MAX_ORIGINS) cache.delete(cache.keys().next().value ?? "");
  cache.set(origin, server);
  return server;
}
