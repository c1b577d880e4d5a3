import type { MiddlewareHandler } from "hono";
import { isAllowedOrigin, type OriginPolicy } from "./origin.ts";
import { httpError } from "./http-error.ts";

// Request headers an MCP client sends; `Mcp-Param-*` is matched by prefix.
const ALLOWED_REQUEST_HEADERS = new Set([
  "content-type",
  "accept",
  "authorization",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "last-event-id",
  "traceparent",
  "tracestate",
  "baggage",
]);
// Response headers a browser client needs to read beyond the CORS-safelisted ones.
const EXPOSED_HEADERS = "WWW-Authenticate, MCP-Protocol-Version, Retry-After";
const ALLOWED_METHODS = "POST, OPTIONS";

function allowedHeader(name: string): boolean {
  return ALLOWED_REQUEST_HEADERS.has(name) || name.startsWith("mcp-param-");
}

/**
 * Origin guard and CORS for MCP endpoints: a foreign `Origin` gets 403 before anything else;
 * an allowed one gets CORS headers, and preflights allow exactly the MCP request headers.
 */
export function mcpCors(
  policy: (env: Cloudflare.Env) => OriginPolicy,
): MiddlewareHandler<{ Bindings: Cloudflare.Env }> {
  return async (c, next) => {
    const origin = c.req.header("Origin");
    if (origin === undefined) return next();
    if (!isAllowedOrigin(origin, c.req.url, policy(c.env))) {
      return httpError(
        403,
        `Origin ${origin} is not allowed to use this MCP endpoint. Add it to ALLOWED_ORIGINS.`,
      );
    }
    if (c.req.method === "OPTIONS") {
      const requested = (c.req.header("Access-Control-Request-Headers") ?? "")
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
    await next();
    c.res.headers.set("Access-Control-Allow-Origin", origin);
    c.res.headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    c.res.headers.append("Vary", "Origin");
  };
}
