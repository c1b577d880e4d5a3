import { hop, type Hop, type HopProbe, type HopRead } from "./hop.ts";

/** The well-known URLs to try for a resource or issuer: the path form (RFC 8414/9728), then the root. */
function wellKnown(base: string, suffix: string): string[] {
  const url = new URL(base);
  const path = url.pathname.replace(/\/$/, "");
  const forms = [`${url.origin}/.well-known/${suffix}${path}`];
  if (path !== "") forms.push(`${url.origin}/.well-known/${suffix}`);
  return forms;
}

/** The first of `urls` the origin can read; else one that answered without CORS. */
async function firstReadable(
  probe: HopProbe,
  urls: string[],
): Promise<{ url: string; read: HopRead } | undefined> {
  let blocked: { url: string; read: HopRead } | undefined;
  for (const url of urls) {
    const read = await probe.read(url, "GET", { Accept: "application/json" });
    if (read.reached && read.corsAllowed && read.status === 200) return { url, read };
    if (read.reached && !read.corsAllowed && (read.status === undefined || read.status === 200))
      blocked ??= { url, read };
  }
  return blocked;
}

/** A member of a JSON body, if it parses. */
function jsonField(body: string | undefined, name: string): unknown {
  try {
    return Reflect.get(Object(JSON.parse(body ?? "")), name);
  } catch {
    return undefined;
  }
}

/**
 * The sign-in's hops after the endpoint: the protected resource metadata, the authorization
 * server's metadata, its `/register` and `/token` endpoints, each readable from the origin.
 */
export async function oauthHops(
  probe: HopProbe,
  url: string,
  origin: string,
  hops: Hop[],
): Promise<void> {
  const allow = `Access-Control-Allow-Origin: ${origin}`;
  const resource = await firstReadable(probe, wellKnown(url, "oauth-protected-resource"));
  if (!resource) {
    hops.push(
      hop(
        "hop.resource-metadata",
        "Protected resource metadata (RFC 9728)",
        "skip",
        "none published (path form, then root)",
      ),
    );
    return;
  }
  if (!resource.read.corsAllowed) {
    hops.push(
      hop(
        "hop.resource-metadata",
        "Protected resource metadata (RFC 9728)",
        "fail",
        `${resource.url} has no CORS`,
        `Serve ${resource.url} with ${allow} (or *).`,
      ),
    );
    return;
  }
  hops.push(
    hop("hop.resource-metadata", "Protected resource metadata (RFC 9728)", "pass", resource.url),
  );
  const servers = jsonField(resource.read.body, "authorization_servers");
  const issuer = Array.isArray(servers) && typeof servers[0] === "string" ? servers[0] : undefined;
  if (!issuer) return;
  const metadata = await firstReadable(probe, [
    ...wellKnown(issuer, "oauth-authorization-server"),
    ...wellKnown(issuer, "openid-configuration"),
  ]);
  if (!metadata || !metadata.read.corsAllowed) {
    hops.push(
      metadata
        ? hop(
            "hop.auth-server-metadata",
            "Authorization server metadata (RFC 8414)",
            "fail",
            `${metadata.url} has no CORS`,
            `Serve ${metadata.url} with ${allow} (or *).`,
          )
        : hop(
            "hop.auth-server-metadata",
            "Authorization server metadata (RFC 8414)",
            "fail",
            `nothing readable for ${issuer}`,
            "Publish /.well-known/oauth-authorization-server for the issuer, with CORS.",
          ),
    );
    return;
  }
  hops.push(
    hop(
      "hop.auth-server-metadata",
      "Authorization server metadata (RFC 8414)",
      "pass",
      metadata.url,
    ),
  );
  for (const [field, rule, title] of [
    ["registration_endpoint", "hop.register", "Client registration (/register) allows this origin"],
    ["token_endpoint", "hop.token", "The token endpoint (/token) allows this origin"],
  ] as const) {
    const endpoint = jsonField(metadata.read.body, field);
    if (typeof endpoint !== "string") continue;
    const refused = await probe.preflight(endpoint, "POST", ["content-type"]);
    hops.push(
      refused !== undefined && refused.length === 0
        ? hop(rule, title, "pass", endpoint)
        : hop(
            rule,
            title,
            "fail",
            refused === undefined
              ? `${endpoint} did not answer`
              : `${endpoint}'s preflight refuses this origin`,
            `Answer OPTIONS on ${endpoint} with ${allow}, Access-Control-Allow-Methods: POST and Access-Control-Allow-Headers: Content-Type, Authorization.`,
          ),
    );
  }
}
