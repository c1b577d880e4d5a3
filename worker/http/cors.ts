import { isAllowedOrigin, type OriginPolicy } from "./origin.ts";
import { HttpError } from "./http-error.ts";

// Request headers an MCP client sends; `Mcp-Param-*` is matched by prefix.
const ALLOWED_REQUEST_HEADERS = new Set([
  "content-type",
  "accept",
  "authorization",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  // What a 2025 client sends back after initialize (it scopes its cancellations).
  "mcp-session-id",
  "last-event-id",
  "traceparent",
  "tracestate",
  "baggage",
]);
// Response headers a browser client needs to read beyond the CORS-safelisted ones.
const EXPOSED_HEADERS = "WWW-Authenticate, MCP-Protocol-Version, Retry-After, Mcp-Session-Id";
// DELETE: a 2025 client ending its session (answered 204; there is nothing to end).
const ALLOWED_METHODS = "POST, DELETE, OPTIONS";

function allowedHeader(name: string): boolean {
  return ALLOWED_REQUEST_HEADERS.has(name) || name.startsWith("mcp-param-");
}

/**
 * The origin guard and CORS preflight of an MCP endpoint: a foreign `Origin` is refused (403)
 * before anything else, and a preflight from an allowed one is answered with exactly the MCP
 * request headers. Undefined means: serve the request (then add `withCors`). `origin`: the
 * request's `Origin`, when the caller has read it already.
 */
export function guardOrigin(
  request: Request,
  policy: OriginPolicy,
  origin: string | null = request.headers.get("Origin"),
): Response | undefined {
  if (origin === null) return undefined;
  if (!isAllowedOrigin(origin, request.url, policy)) {
    throw new HttpError(
      403,
      `Origin ${origin} is not allowed to use this MCP endpoint. Add it to ALLOWED_ORIGINS.`,
    );
  }
  if (request.method !== "OPTIONS") return undefined;
  const requested = (request.headers.get("Access-Control-Request-Headers") ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== "" && allowedHeader(h));
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Methods": ALLOWED_METHODS,
      "Access-Control-Allow-Headers": requested.join(", "),
      "Access-Control-Max-Age": "86400",
      Vary: "Origin, Access-Control-Request-Headers",
    },
  });
}

/** Adds the CORS response headers for an allowed browser origin. */
export function withCors(response: Response, origin: string | null): Response {
  if (origin === null) return response;
  response.headers.set("Access-Control-Allow-Origin", origin);
  response.headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  response.headers.append("Vary", "Origin");
  return response;
}
