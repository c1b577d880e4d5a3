import type * as oauth from "oauth4webapi";
import type { BearerChallenge } from "./challenge.ts";
import type { FlowContext } from "./context.ts";
import { AuthError } from "./errors.ts";
import { discoverResource, type ResourceMetadata } from "./resource-metadata.ts";
import {
  defaultServer,
  discoverServer,
  requireS256,
  serverMetadataUrls,
} from "./server-metadata.ts";
import { unionScopes } from "./tokens.ts";

/** Where a server signs in, found from its metadata. */
export type Binding = {
  issuer: string;
  as: oauth.AuthorizationServer;
  /** RFC 8707 `resource`; undefined for a 2025-03-26 server without resource metadata. */
  resource: string | undefined;
  /** The scopes the resource metadata lists, the fallback when a challenge names none. */
  scopesSupported: string | undefined;
  legacy: boolean;
};

/**
 * Discovery after a 401: the protected resource metadata, then its authorization server's
 * metadata; without resource metadata, the 2025-03-26 rules (the server's origin, its metadata or
 * its default endpoints).
 */
export async function discover(
  ctx: FlowContext,
  server: URL,
  challenge: BearerChallenge | undefined,
): Promise<Binding> {
  ctx.report({
    step: "challenge",
    status: "ok",
    rule: "RFC 9728 §5.1",
    summary: challenge?.resourceMetadata
      ? `401 names resource metadata ${challenge.resourceMetadata}${challenge.scope ? ` and scope "${challenge.scope}"` : ""}.`
      : "401 without resource_metadata: looking at the well-known URLs.",
  });
  return bindTo(ctx, server, await discoverResource(ctx, server, challenge));
}

/**
 * Discovery before any 401, for a sign-in asked for ahead (a server whose reads are open and
 * whose writes need a token): only a server that publishes protected resource metadata at its
 * well-known URLs asks for sign-in; undefined for one that publishes none.
 */
export async function discoverAhead(ctx: FlowContext, server: URL): Promise<Binding | undefined> {
  ctx.report({
    step: "challenge",
    status: "skipped",
    rule: "RFC 9728 §3",
    summary: "Signing in before the server asks: looking at the well-known URLs.",
  });
  const metadata = await discoverResource(ctx, server, undefined);
  return metadata && bindTo(ctx, server, metadata);
}

async function bindTo(
  ctx: FlowContext,
  server: URL,
  metadata: ResourceMetadata | undefined,
): Promise<Binding> {
  const issuer = metadata?.authorization_servers?.[0] ?? server.origin;
  const found = await discoverServer(ctx, issuer, !metadata);
  if (!found && metadata) {
    throw new AuthError(
      "server-metadata",
      "RFC 8414 §3; OpenID Connect Discovery §4",
      `The authorization server ${issuer} publishes no metadata at any of its well-known URLs.`,
      {
        fix: `The server's owner must serve RFC 8414 metadata at ${serverMetadataUrls(new URL(issuer))[0] ?? issuer}.`,
      },
    );
  }
  if (!found) {
    ctx.report({
      step: "server-metadata",
      status: "skipped",
      rule: "MCP 2025-03-26 authorization",
      summary: `No metadata at all: using ${issuer}/authorize, /token and /register.`,
    });
  }
  const as = found ?? defaultServer(issuer);
  if (found || metadata) requireS256(as);
  return {
    issuer: as.issuer,
    as,
    resource: metadata?.resource,
    scopesSupported: unionScopes(...(metadata?.scopes_supported ?? [])),
    legacy: !metadata,
  };
}
