/** What an endpoint's RFC 9728 metadata says besides its URL. */
export type ResourceMetadataOptions = {
  /** Issuers of the tokens it accepts (its OAuth authorization servers), if any. */
  authorizationServers?: readonly string[];
  /** Scopes its policy names, for clients to ask for. */
  scopes?: readonly string[];
  /** A human-readable name. */
  name?: string;
  /** Where people read how to get a credential. */
  documentation?: string;
};

/**
 * An MCP endpoint's OAuth 2.0 protected resource metadata (RFC 9728): the resource (the
 * endpoint's URL, the audience its tokens must name), who issues tokens for it, and that
 * tokens travel in the `Authorization` header. Served at
 * `/.well-known/oauth-protected-resource<endpoint path>`, named by every 401's challenge.
 */
export function protectedResourceMetadata(
  resource: string,
  options: ResourceMetadataOptions = {},
): Record<string, unknown> {
  const { authorizationServers, scopes, name, documentation } = options;
  return {
    resource,
    ...(authorizationServers?.length ? { authorization_servers: authorizationServers } : {}),
    bearer_methods_supported: ["header"],
    ...(scopes?.length ? { scopes_supported: scopes } : {}),
    ...(name ? { resource_name: name } : {}),
    ...(documentation ? { resource_documentation: documentation } : {}),
  };
}

/** The metadata document as an HTTP response any origin may read (it holds nothing secret). */
export function metadataResponse(document: Record<string, unknown>): Response {
  return new Response(JSON.stringify(document), {
    headers: {
      "Content-Type": "application/json",
      "Cache-Control": "public, max-age=3600",
      "Access-Control-Allow-Origin": "*",
    },
  });
}
