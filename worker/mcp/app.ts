import { guardOrigin, withCors } from "../http/cors.ts";
import { httpError } from "../http/http-error.ts";
import { parseOriginList, type OriginPolicy } from "../http/origin.ts";
import type { Coordination, DurableSetup } from "../durable/bindings.ts";
import { readVar } from "../env-vars.ts";
import { registerServer } from "./registry.ts";
import type { Served } from "./server.ts";
import { handlePost, type TransportOptions } from "./transport.ts";
import { errorText } from "../../shared/error-text.ts";

export type McpAppOptions = Partial<TransportOptions> & {
  /** Extra browser origins allowed (default: the `ALLOWED_ORIGINS` variable, comma-separated). */
  allowedOrigins?: string[];
  /**
   * The Durable Objects for cancellation, listen streams and tasks:
   * `(env) => durableObjects({ rendezvous: env.MCP_RENDEZVOUS, ... })` from `edgemcp/durable`.
   */
  durable?: (env: Cloudflare.Env) => Coordination;
};

/** What a Worker's `fetch` gets besides the request. */
export type WorkerContext = { waitUntil(promise: Promise<unknown>): void };

/** A Worker handler: export it as the Worker, or call it from a router. */
export type McpHandler = {
  fetch(request: Request, env: Cloudflare.Env, ctx: WorkerContext): Promise<Response>;
};

const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_KEEP_ALIVE_MS = 15_000;
const DEFAULT_LISTEN_MAX_MS = 30 * 60_000;

/**
 * Serves one MCP server on any path it is given: POST for messages, the origin guard and CORS
 * preflight, and 405 for GET/DELETE (there are no sessions or standalone streams). No
 * framework on the request path.
 *
 * Reads the Worker's `EDGEMCP_SECRET` (required: it seals handles, cursors and requestState),
 * `EDGEMCP_PREVIOUS_SECRETS` (comma-separated, still accepted after a rotation),
 * `ALLOWED_ORIGINS` and `MAX_BODY_BYTES`.
 */
export function mcpHandler(server: Served, options: McpAppOptions = {}): McpHandler {
  registerServer(server, options.durable);
  // Settings come from options first, then from the Worker's variables, read once per isolate.
  let policy: OriginPolicy | undefined;
  let transport: TransportOptions | undefined;
  let durable: DurableSetup | undefined;
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
  return {
    async fetch(request, env, ctx) {
      const refused = guardOrigin(request, policyOf(env));
      if (refused) return refused;
      const origin = request.headers.get("Origin");
      if (request.method !== "POST") {
        const message = `${request.method} is not supported: this MCP endpoint is stateless, send JSON-RPC messages with POST.`;
        return withCors(httpError(405, message, { Allow: "POST, OPTIONS" }), origin);
      }
      try {
        durable ??= checkedDurable(options.durable?.(env));
      } catch (error) {
        const message = errorText(error);
        console.error(message);
        return withCors(httpError(500, `Server misconfigured: ${message}`), origin);
      }
      const runtime = {
        env,
        waitUntil: (p: Promise<unknown>) => ctx.waitUntil(p),
        durable,
      };
      return withCors(await handlePost(server, request, runtime, transportOf(env)), origin);
    },
  };
}

/** The durable option's result, refused when it gives namespaces without their drivers. */
function checkedDurable(given: DurableSetup | undefined): DurableSetup {
  if (!given) return {};
  if (!given.drivers && (given.rendezvous || given.bus || given.tasks)) {
    throw new Error(
      "the durable option gave Durable Object namespaces without their drivers: return durableObjects({ ... }) from edgemcp/durable.",
    );
  }
  return given;
}
