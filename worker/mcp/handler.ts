import { errorText } from "../../shared/error-text.ts";
import type { Authenticate } from "../auth/bearer.ts";
import { readVar } from "../env-vars.ts";
import { guardOrigin, withCors } from "../http/cors.ts";
import { HttpError } from "../http/http-error.ts";
import { parseOriginList, type OriginPolicy } from "../http/origin.ts";
import { builtKeyringOf, keyringOf } from "../state/keyring.ts";
import type { Served } from "./define/server.ts";
import { servePost, type Runtime, type Settings } from "./pipeline.ts";
import { checkedCoordination, type Coordination } from "./ports.ts";
import { failure } from "./request/errors.ts";
import { jsonResponse } from "./request/reply.ts";
import { registerServer } from "./tasks/registry.ts";

export type McpAppOptions = Partial<Settings> & {
  /** Extra browser origins allowed (default: the `ALLOWED_ORIGINS` variable, comma-separated). */
  allowedOrigins?: string[];
  /**
   * Coordination across instances (cancellation, listen streams, tasks):
   * `(env) => durableObjects({ rendezvous: env.MCP_RENDEZVOUS, ... })` from `edgemcp/durable`.
   */
  durable?: (env: Cloudflare.Env) => Coordination;
  /** Establishes the caller; without it every caller is anonymous. */
  authenticate?: Authenticate;
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
 * Serves one MCP server on any path it is given. Before the pipeline: the origin guard and
 * CORS preflight, 405 for anything but POST (there are no sessions or standalone streams), the
 * deployment's configuration, and the caller. No framework on the request path.
 *
 * Reads the Worker's `EDGEMCP_SECRET` (required: it seals handles, cursors and requestState),
 * `EDGEMCP_PREVIOUS_SECRETS` (comma-separated, still accepted after a rotation),
 * `ALLOWED_ORIGINS` and `MAX_BODY_BYTES`.
 */
export function mcpHandler(server: Served, options: McpAppOptions = {}): McpHandler {
  registerServer(server, options.durable);
  // Settings come from options first, then from the Worker's variables, read once per isolate.
  let policy: OriginPolicy | undefined;
  let settings: Settings | undefined;
  let coordination: Coordination | undefined;
  const policyOf = (env: Cloudflare.Env) =>
    (policy ??= {
      allowed: options.allowedOrigins ?? parseOriginList(readVar(env, "ALLOWED_ORIGINS")),
    });
  const settingsOf = (env: Cloudflare.Env) =>
    (settings ??= {
      maxBodyBytes:
        options.maxBodyBytes ?? (Number(readVar(env, "MAX_BODY_BYTES")) || DEFAULT_MAX_BODY),
      keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
      listenMaxMs: options.listenMaxMs ?? DEFAULT_LISTEN_MAX_MS,
    });
  return {
    async fetch(request, env, ctx) {
      // A refused origin gets no CORS headers: the browser must not read the refusal either.
      let origin: string | null = null;
      try {
        const preflight = guardOrigin(request, policyOf(env));
        if (preflight) return preflight;
        origin = request.headers.get("Origin");
        if (request.method !== "POST") {
          const message = `${request.method} is not supported: this MCP endpoint is stateless, send JSON-RPC messages with POST.`;
          throw new HttpError(405, message, { Allow: "POST, OPTIONS" });
        }
        coordination ??= await configured(() => checkedCoordination(options.durable?.(env)));
        const runtime: Runtime = {
          env,
          // A method, not an arrow: bundlers keeping names would rename an arrow per request.
          waitUntil(promise) {
            ctx.waitUntil(promise);
          },
          coordination,
          keyring: builtKeyringOf(env) ?? (await configured(() => keyringOf(env))),
          settings: settingsOf(env),
        };
        const caller = await options.authenticate?.(request, env);
        return withCors(await servePost(server, request, caller, runtime), origin);
      } catch (error) {
        return withCors(jsonResponse(failure(error)), origin);
      }
    },
  };
}

/** Reads part of the deployment's configuration; a problem is logged and answered 500. */
async function configured<T>(read: () => T | Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const message = errorText(error);
    console.error(message);
    throw new HttpError(500, `Server misconfigured: ${message}`);
  }
}
