import * as oauth from "oauth4webapi";
import type { FlowContext } from "./context.ts";
import { AuthError } from "./errors.ts";

const OAUTH = "/.well-known/oauth-authorization-server";
const OIDC = "/.well-known/openid-configuration";

/**
 * Where an issuer's metadata may be, in the MCP spec's order: RFC 8414 with the path inserted,
 * OpenID Connect with the path inserted, then OpenID Connect with the path appended.
 */
export function serverMetadataUrls(issuer: URL): string[] {
  const path = issuer.pathname === "/" ? "" : issuer.pathname.replace(/\/$/, "");
  if (!path) return [`${issuer.origin}${OAUTH}`, `${issuer.origin}${OIDC}`];
  return [
    `${issuer.origin}${OAUTH}${path}`,
    `${issuer.origin}${OIDC}${path}`,
    `${issuer.origin}${path}${OIDC}`,
  ];
}

/**
 * Fetches an issuer's metadata, trying each URL in order while they answer 404, and accepts it
 * only when its `issuer` is the very string the metadata was fetched for (RFC 8414 §3.3).
 * Undefined when no URL has any. A 2025-03-26 server's metadata (`legacy`) is read at its origin
 * without that check: the revision had no resource metadata naming an issuer to compare with.
 */
export async function discoverServer(
  ctx: FlowContext,
  issuer: string,
  legacy = false,
): Promise<oauth.AuthorizationServer | undefined> {
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    throw new AuthError(
      "server-metadata",
      "RFC 8414 §2",
      `The authorization server "${issuer}" is not a URL.`,
      {
        fix: "The server's owner must list its authorization server's issuer URL in the protected resource metadata.",
      },
    );
  }
  for (const url of serverMetadataUrls(issuerUrl)) {
    const response = await ctx.get(url, "server-metadata");
    if (response.status >= 400 && response.status < 500) {
      await response.body?.cancel();
      ctx.report({
        step: "server-metadata",
        status: "skipped",
        url,
        httpStatus: response.status,
        summary: `No authorization server metadata at ${url}.`,
      });
      continue;
    }
    const expected = legacy ? await servedIssuer(response) : issuer;
    const metadata = await processMetadata(url, expected, response);
    ctx.report({
      step: "server-metadata",
      status: "ok",
      url,
      httpStatus: 200,
      rule: legacy ? "MCP 2025-03-26 authorization" : "RFC 8414 §3.3",
      summary: legacy
        ? `Issuer ${metadata.issuer}, from the server's own origin (2025-03-26).`
        : `Issuer ${metadata.issuer} matches the issuer it was fetched for.`,
    });
    return metadata;
  }
  return undefined;
}

/** The issuer a metadata document names, read from a copy (the original is left to oauth4webapi). */
async function servedIssuer(response: Response): Promise<string> {
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  return served({ body });
}

async function processMetadata(
  url: string,
  issuer: string,
  response: Response,
): Promise<oauth.AuthorizationServer> {
  let metadata: oauth.AuthorizationServer;
  try {
    metadata = await oauth.processDiscoveryResponse(issuerUrlOf(url, issuer), response);
  } catch (error) {
    if (
      error instanceof oauth.OperationProcessingError &&
      error.code === oauth.JSON_ATTRIBUTE_COMPARISON
    ) {
      throw issuerMismatch(url, issuer, served(error.cause));
    }
    throw new AuthError(
      "server-metadata",
      "RFC 8414 §3.2",
      `The authorization server metadata at ${url} is unusable: ${metadataProblem(error, response)}`,
      {
        fix: "The server's owner must serve its RFC 8414 metadata there: a JSON object with status 200.",
        url,
        httpStatus: response.status,
        cause: error,
      },
    );
  }
  // oauth4webapi compares issuers as parsed URLs; the spec asks for the identical string.
  if (metadata.issuer !== issuer) throw issuerMismatch(url, issuer, metadata.issuer);
  return metadata;
}

/** The issuer as a URL for oauth4webapi; a document naming none is left to it to refuse. */
function issuerUrlOf(url: string, issuer: string): URL {
  try {
    return new URL(issuer);
  } catch {
    return new URL(url);
  }
}

function served(cause: unknown): string {
  if (typeof cause === "object" && cause !== null && "body" in cause) {
    const body = cause.body;
    if (typeof body === "object" && body !== null && "issuer" in body) return String(body.issuer);
  }
  return "(another issuer)";
}

function issuerMismatch(url: string, expected: string, actual: string): AuthError {
  return new AuthError(
    "server-metadata",
    "RFC 8414 §3.3",
    `The metadata's issuer is \`${actual}\` but it was fetched for \`${expected}\`: RFC 8414 §3.3 requires them to be identical, so the metadata (read from ${url}) was not used.`,
    {
      fix: "The server's owner must make the metadata's issuer and the protected resource metadata's authorization_servers entry the same string, character for character.",
      url,
      httpStatus: 200,
    },
  );
}

function metadataProblem(error: unknown, response: Response): string {
  if (error instanceof oauth.OperationProcessingError) {
    if (error.code === oauth.PARSE_ERROR) return "it is not JSON.";
    if (error.code === oauth.RESPONSE_IS_NOT_JSON)
      return `it is not JSON (Content-Type: ${response.headers.get("content-type") ?? "none"}).`;
    if (error.code === oauth.RESPONSE_IS_NOT_CONFORM) return `it answered HTTP ${response.status}.`;
    if (error.code === oauth.INVALID_RESPONSE) return `${error.message}.`;
  }
  return error instanceof Error ? `${error.message}.` : String(error);
}

/**
 * A 2025-03-26 server without any metadata: its origin is the authorization server, at the
 * default paths the 2025-03-26 spec names.
 */
export function defaultServer(origin: string): oauth.AuthorizationServer {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
  };
}

/** PKCE with S256 must be listed, or the sign-in stops (MCP authorization, PKCE). */
export function requireS256(metadata: oauth.AuthorizationServer): void {
  if (metadata.code_challenge_methods_supported?.includes("S256")) return;
  throw new AuthError(
    "server-metadata",
    "MCP authorization: PKCE; RFC 8414 §2",
    `The authorization server ${metadata.issuer} does not list S256 in code_challenge_methods_supported, and MCP clients must refuse to sign in without PKCE.`,
    {
      fix: 'The server\'s owner must support PKCE with S256 and list it: "code_challenge_methods_supported": ["S256"].',
    },
  );
}
