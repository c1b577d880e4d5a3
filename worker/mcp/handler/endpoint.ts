import { isLocalHost } from "../../http/origin.ts";

/** Where an endpoint's RFC 9728 protected resource metadata is served. */
export const METADATA_PREFIX = "/.well-known/oauth-protected-resource";

/** The metadata document's URL for the endpoint a request was sent to. */
export function resourceMetadataUrl(request: { url: string }): string {
  return endpointAt(request.url, SHARED).metadataUrl;
}

/** What the handler reads from a request's URL: whether it went to localhost, and its metadata URL. */
export type Endpoint = { url: string; local: boolean; metadataUrl: string };

/**
 * The last URL read, kept by each handler: an endpoint is asked at the same URL request after
 * request, so its URL is parsed once, not once per request. One for the whole isolate would be
 * parsed again on every hub call, the hub's URL and its in-process servers' alternating.
 */
export type LastEndpoint = { last?: Endpoint };
const SHARED: LastEndpoint = {};

/** The endpoint a request was sent to, by its URL (the entry depends on the URL alone). */
export function endpointAt(url: string, cache: LastEndpoint): Endpoint {
  if (cache.last?.url === url) return cache.last;
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, "");
  const metadataUrl = `${parsed.origin}${METADATA_PREFIX}${path}`;
  return (cache.last = { url, local: isLocalHost(parsed.hostname), metadataUrl });
}
