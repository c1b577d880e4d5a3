import * as z from "zod/mini";
import type { BearerChallenge } from "./challenge.ts";
import type { FlowContext } from "./context.ts";
import { AuthError } from "./errors.ts";
import { readJson } from "./read-json.ts";

/** Protected resource metadata (RFC 9728 §2), as far as a client reads it. */
export const ResourceMetadataSchema = z.looseObject({
  resource: z.string(),
  authorization_servers: z.optional(z.array(z.string())),
  scopes_supported: z.optional(z.array(z.string())),
});
export type ResourceMetadata = z.infer<typeof ResourceMetadataSchema>;

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** Where to look, in the spec's order: the challenge's URL, then the path form, then the root. */
export function resourceMetadataUrls(
  server: URL,
  challenge: BearerChallenge | undefined,
): string[] {
  const urls: string[] = [];
  if (challenge?.resourceMetadata) urls.push(new URL(challenge.resourceMetadata, server).href);
  const path = server.pathname === "/" ? "" : server.pathname.replace(/\/$/, "");
  if (path) urls.push(`${server.origin}${WELL_KNOWN}${path}`);
  urls.push(`${server.origin}${WELL_KNOWN}`);
  return [...new Set(urls)];
}

/**
 * True when the metadata's `resource` covers the server's URL: the same origin and a path that
 * is the server's path or a parent of it (a server may describe its whole origin).
 */
export function coversServer(resource: string, server: URL): boolean {
  let named: URL;
  try {
    named = new URL(resource);
  } catch {
    return false;
  }
  if (named.origin !== server.origin || named.search || named.hash) return false;
  const parent = named.pathname.replace(/\/$/, "");
  return server.pathname === named.pathname || server.pathname.startsWith(`${parent}/`) || !parent;
}

/**
 * Finds the server's protected resource metadata (RFC 9728). Undefined when no URL has any: a
 * 2025-03-26 server, whose own origin is its authorization server.
 */
export async function discoverResource(
  ctx: FlowContext,
  server: URL,
  challenge: BearerChallenge | undefined,
): Promise<ResourceMetadata | undefined> {
  for (const url of resourceMetadataUrls(server, challenge)) {
    const response = await ctx.get(url, "resource-metadata");
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      ctx.report({
        step: "resource-metadata",
        status: "skipped",
        url,
        httpStatus: response.status,
        summary: `No protected resource metadata at ${url}.`,
      });
      continue;
    }
    const metadata = await readJson(url, response, ResourceMetadataSchema, {
      step: "resource-metadata",
      rule: "RFC 9728 §3.2",
      what: "protected resource metadata",
    });
    if (!coversServer(metadata.resource, server)) {
      throw new AuthError(
        "resource-metadata",
        "RFC 9728 §3.3",
        `The protected resource metadata at ${url} names the resource "${metadata.resource}", which is not this server (${server.href}); a client must not use metadata for another resource.`,
        {
          fix: `The server's owner must set "resource" to the server's URL.`,
          url,
          httpStatus: 200,
        },
      );
    }
    if (!metadata.authorization_servers?.length) {
      throw new AuthError(
        "resource-metadata",
        "RFC 9728 §2",
        `The protected resource metadata at ${url} lists no authorization_servers, so there is nowhere to sign in.`,
        {
          fix: "The server's owner must list its authorization server's issuer in authorization_servers.",
          url,
          httpStatus: 200,
        },
      );
    }
    ctx.report({
      step: "resource-metadata",
      status: "ok",
      url,
      httpStatus: 200,
      rule: "RFC 9728 §3.3",
      summary: `Resource ${metadata.resource}, signed in through ${metadata.authorization_servers.join(", ")}.`,
    });
    return metadata;
  }
  return undefined;
}
