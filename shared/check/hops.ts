/**
 * Every hop a browser client on another origin needs, checked one by one: the MCP endpoint's
 * preflight and answer, a 401's `WWW-Authenticate`, the protected resource metadata, the
 * authorization server's metadata and its `/register` and `/token` endpoints. Each hop says what
 * was seen, the exact fix on the server, and whether this Worker's relay gets around it. The
 * page and `edgemcp check --origin` run the same hops through their own HopProbe.
 */

/** What a browser on the origin would get for one request (as far as the probe can tell). */
export type HopRead = {
  /** Any HTTP answer came back. */
  reached: boolean;
  /** The status, when known (a browser cannot see it when CORS hides the answer). */
  status?: number;
  /** The answer carries Access-Control-Allow-Origin for the origin (or `*`). */
  corsAllowed: boolean;
  /** Headers the page could read (after Access-Control-Expose-Headers). */
  headers?: Headers;
  body?: string;
  /** Where the answer came from, when a redirect was followed to get it. */
  redirectedTo?: string;
};

/** How the hops are observed: in a browser by trying, from the CLI by reading the CORS headers. */
export interface HopProbe {
  /** Request headers (lower case) a preflight for `method` refuses; undefined when unreachable. */
  preflight(url: string, method: string, headers: string[]): Promise<string[] | undefined>;
  read(
    url: string,
    method: "GET" | "POST",
    headers: Record<string, string>,
    body?: string,
  ): Promise<HopRead>;
}

export type HopStatus = "pass" | "fail" | "skip";

/** One hop's verdict. */
export type Hop = {
  rule: string;
  title: string;
  status: HopStatus;
  seen: string;
  /** What the server must change (empty when it passes). */
  fix: string;
  /** Whether routing through this Worker's relay gets around the failure. */
  relayHelps: boolean;
};

/** Whether the relay gets around a failed hop, in words. */
export function relayVerdict(hop: Hop): string {
  return hop.relayHelps
    ? "Until then, this Worker's relay gets around it (the playground's Auto or relay connection)."
    : "The relay does not help here.";
}

/** The headers an MCP client sends that need a preflight (`Authorization` always named). */
export const PREFLIGHTED = [
  "content-type",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "authorization",
];

const DISCOVER =
  '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}';

const hop = (
  rule: string,
  title: string,
  status: HopStatus,
  seen: string,
  fix = "",
  relayHelps = status === "fail",
): Hop => ({
  rule,
  title,
  status,
  seen,
  fix,
  relayHelps,
});

/** The well-known URLs to try for a resource or issuer: the path form (RFC 8414/9728), then the root. */
function wellKnown(base: string, suffix: string): string[] {
  const url = new URL(base);
  const path = url.pathname.replace(/\/$/, "");
  const forms = [`${url.origin}/.well-known/${suffix}${path}`];
  if (path !== "") forms.push(`${url.origin}/.well-known/${suffix}`);
  return forms;
}

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

function jsonField(body: string | undefined, name: string): unknown {
  try {
    return Reflect.get(Object(JSON.parse(body ?? "")), name);
  } catch {
    return undefined;
  }
}

/** Runs every hop for an MCP endpoint as a page on `origin` would meet them. */
export async function checkHops(
  probe: HopProbe,
  url: string,
  origin: string,
  custom: string[] = [],
): Promise<Hop[]> {
  const hops: Hop[] = [];
  const allow = `Access-Control-Allow-Origin: ${origin}`;
  const wanted = [...PREFLIGHTED, ...custom.map((h) => h.toLowerCase())];
  const refused = await probe.preflight(url, "POST", wanted);
  if (refused === undefined) {
    hops.push(
      hop(
        "hop.endpoint",
        "The MCP endpoint answers",
        "fail",
        `no HTTP answer from ${url}`,
        "Check the URL and that the server runs.",
        false,
      ),
    );
    return hops;
  }
  hops.push(
    refused.length === 0
      ? hop(
          "hop.preflight",
          "The endpoint's preflight allows POST and every header the client sends",
          "pass",
          wanted.join(", "),
        )
      : hop(
          "hop.preflight",
          "The endpoint's preflight allows POST and every header the client sends",
          "fail",
          `refused: ${refused.join(", ")}`,
          `Answer OPTIONS with ${allow}, Access-Control-Allow-Methods: POST, GET, DELETE and Access-Control-Allow-Headers: ${refused.join(", ")} (a * never covers Authorization).`,
        ),
  );
  const answer = await probe.read(
    url,
    "POST",
    { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    DISCOVER,
  );
  const originRefused = answer.status === 403 && /origin/i.test(answer.body ?? "");
  if (originRefused)
    hops.push(
      hop(
        "hop.origin-403",
        "The server accepts this page's Origin",
        "fail",
        `403: ${(answer.body ?? "").trim().slice(0, 200)}`,
        `Add ${origin} to the server's allowed origins (this is its Origin check, not CORS).`,
      ),
    );
  else
    hops.push(
      answer.corsAllowed
        ? hop(
            "hop.answer",
            "The endpoint's answer is readable from this origin",
            "pass",
            `HTTP ${answer.status ?? "?"} with ${allow}`,
          )
        : hop(
            "hop.answer",
            "The endpoint's answer is readable from this origin",
            "fail",
            "no Access-Control-Allow-Origin for this origin",
            `Send ${allow} (or *) on every answer, errors included.`,
          ),
    );
  if (answer.redirectedTo !== undefined)
    hops.push(
      hop(
        "hop.redirect",
        "The endpoint answers without a redirect",
        "fail",
        `redirected to ${answer.redirectedTo}`,
        `Connect to ${answer.redirectedTo} itself: a browser drops Authorization on a redirect to another origin, and a preflight cannot be redirected.`,
        false,
      ),
    );
  if (answer.status === 401) {
    const challenge = answer.headers?.get("WWW-Authenticate");
    hops.push(
      challenge
        ? hop("hop.www-authenticate", "A 401 exposes WWW-Authenticate", "pass", challenge)
        : hop(
            "hop.www-authenticate",
            "A 401 exposes WWW-Authenticate",
            "fail",
            "the page cannot read WWW-Authenticate",
            "Add WWW-Authenticate to Access-Control-Expose-Headers, so the client finds where to sign in.",
          ),
    );
  }
  await oauthHops(probe, url, origin, hops);
  return hops;
}

async function oauthHops(probe: HopProbe, url: string, origin: string, hops: Hop[]): Promise<void> {
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
