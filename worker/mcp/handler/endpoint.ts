import { isLocalHost } from "../../http/origin.ts";

/** Where an endpoint's RFC 9728 protected resource metadata is served. */
export const METADATA_PREFIX = "/.well-known/oauth-protected-resource";

/** The metadata document's URL for the endpoint a request was sent to. */
export function resourceMetadataUrl(request: Request): string {
  return endpointAt(request.url).metadataUrl;
}

/** What the handler reads from a request's URL: whether it went to localhost, and its metadata URL. */
export type Endpoint = { url: string; local: boolean; metadataUrl: string };

// The last URL read: an endpoint is asked at the same URL request after request, so its URL is
// parsed once, not once per request. The entry depends on the URL alone.
let lastEndpoint: Endpoint | undefined;

/** The endpoint a request was sent to, by its URL. */
export function endpointAt(url: string): Endpoint {
  if (lastEndpoint?.url === url) return lastEndpoint;
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, "");
  const metadataUrl = `${parsed.origin}${METADATA_PREFIX}${path}`;
  return (lastEndpoint = { url, local: isLocalHost(parsed.hostname), metadataUrl });
}
