import { RelayRefusal } from "./refusal.ts";

// What an MCP client sends, forwarded whenever the page set it (`Mcp-*` by prefix).
const MCP_REQUEST_HEADERS = new Set([
  "authorization",
  "accept",
  "content-type",
  "mcp-protocol-version",
  "last-event-id",
]);

/**
 * Names never forwarded, even when the page declares them: what the browser adds about the
 * page (cookies, origin, fetch metadata), hop-by-hop framing, and what proxies and Cloudflare
 * say about the caller, which a target would take as the Worker's word.
 */
const NEVER =
  /^(cookie2?|host|origin|referer|connection|keep-alive|te|trailers?|transfer-encoding|upgrade|content-length|expect|via|forwarded|x-real-ip|true-client-ip|proxy-.*|sec-.*|cf-.*|x-forwarded-.*|relay-.*)$/;

// An HTTP field name (RFC 9110 token).
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;

/** At most this many custom headers, so a page cannot make the Worker send a huge request. */
const MAX_CUSTOM = 32;

/** The target's response headers an MCP or OAuth client reads; `Location` is renamed (below). */
const RESPONSE_HEADERS = [
  "content-type",
  "www-authenticate",
  "mcp-session-id",
  "mcp-protocol-version",
  "retry-after",
  "cache-control",
];

/**
 * The headers sent to the target: the MCP ones the page set, and the custom ones it names in
 * `Relay-Headers` (comma-separated). A named header the relay never forwards is refused by name,
 * so a user learns why it did not arrive; everything else (cookies above all) is dropped.
 */
export function headersForTarget(incoming: Headers): Headers {
  const custom = (incoming.get("Relay-Headers") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
  if (custom.length > MAX_CUSTOM)
    throw new RelayRefusal(
      400,
      "header",
      `The relay forwards at most ${MAX_CUSTOM} custom headers.`,
    );
  for (const name of custom) {
    if (!TOKEN.test(name))
      throw new RelayRefusal(
        400,
        "header",
        "Relay-Headers names a header that is not a valid field name.",
      );
    if (NEVER.test(name))
      throw new RelayRefusal(
        400,
        "header",
        `The relay never forwards ${name}: cookies, proxy, Cloudflare and browser headers stay with the page.`,
      );
  }
  const out = new Headers();
  for (const [name, value] of incoming) {
    const forwarded =
      MCP_REQUEST_HEADERS.has(name) || name.startsWith("mcp-") || custom.includes(name);
    if (forwarded && !NEVER.test(name)) out.set(name, value);
  }
  return out;
}

/**
 * The headers passed back to the page: the ones a client reads, and a redirect's `Location` as
 * `Relay-Location`, since the browser would follow a `Location` by itself (to the target, with
 * no CORS, or to the Worker), and the relay does not follow redirects.
 */
export function headersForPage(response: Response): Headers {
  const out = new Headers();
  for (const name of RESPONSE_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) out.set(name, value);
  }
  const location = response.headers.get("location");
  if (location !== null) out.set("Relay-Location", location);
  out.set("Cache-Control", response.headers.get("cache-control") ?? "no-store");
  return out;
}
