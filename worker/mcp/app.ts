import { Hono } from "hono";
import { mcpCors } from "../http/cors.ts";
import { httpError } from "../http/http-error.ts";
import { parseOriginList, type OriginPolicy } from "../http/origin.ts";
import { keyringFrom } from "../state/keyring.ts";
import { readVar } from "./env-vars.ts";
import { registerServer } from "./registry.ts";
import type { DurableBindings } from "../durable/bindings.ts";
import type { Served } from "./server.ts";
import { handlePost, type TransportOptions } from "./transport.ts";

export type McpAppOptions = Partial<TransportOptions> & {
  /** Extra browser origins allowed (default: the `ALLOWED_ORIGINS` variable, comma-separated). */
  allowedOrigins?: string[];
  /** The Durable Object namespaces for cancellation, listen streams and tasks. */
  durable?: (env: Cloudflare.Env) => DurableBindings;
};

const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_KEEP_ALIVE_MS = 15_000;
const DEFAULT_LISTEN_MAX_MS = 30 * 60_000;

/**
 * A Hono app serving one MCP server at its root path: POST for messages, CORS preflight,
 * and 405 for GET/DELETE (there are no sessions or standalone streams to open or end).
 * Mount it with `app.route("/mcp", mcpApp(server))` or export it as the Worker itself.
 *
 * Reads the Worker's `EDGEMCP_SECRET` (required: it seals handles, cursors and requestState),
 * `EDGEMCP_PREVIOUS_SECRETS` (comma-separated, still accepted after a rotation),
 * `ALLOWED_ORIGINS` and `MAX_BODY_BYTES`.
 */
export function mcpApp(
  server: Served,
  options: McpAppOptions = {},
): Hono<{ Bindings: Cloudflare.Env }> {
  const app = new Hono<{ Bindings: Cloudflare.Env }>();
  registerServer(server, options.durable);
  // Settings come from options first, then from the Worker's variables, read once per isolate.
  let policy: OriginPolicy | undefined;
  let transport: TransportOptions | undefined;
  const policyOf = (env: Cloudflare.Env) =>
    (policy ??= {
      allowed: options.allowedOrigins ?? parseOriginList(readVar(env, "ALLOWED_ORIGINS")),
    });
  const transportOf = (env: Cloudflare.Env) =>
    (transport ??= {
      maxBodyBytes:
        options.maxBodyBytes ?? (Number(readVar(env, "MAX_BODY_BYTES")) || DEFAULT_MAX_BODY),
      keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
      listenMaxMs: options.listenMaxMs ?? DEFAULT_LISTEN_MAX_MS,
      ...(options.authenticate ? { authenticate: options.authenticate } : {}),
    });

  app.use("/", mcpCors(policyOf));
  app.post("/", (c) =>
    handlePost(
      server,
      c.req.raw,
      {
        env: c.env,
        waitUntil: (p) => c.executionCtx.waitUntil(p),
        keyring: () =>
          keyringFrom(readVar(c.env, "EDGEMCP_SECRET"), readVar(c.env, "EDGEMCP_PREVIOUS_SECRETS")),
        durable: options.durable?.(c.env) ?? {},
      },
      transportOf(c.env),
    ),
  );
  app.all("/", (c) =>
    httpError(
      405,
      `${c.req.method} is not supported: this MCP endpoint is stateless, send JSON-RPC messages with POST.`,
      {
        Allow: "POST, OPTIONS",
      },
    ),
  );
  return app;
}
