import { errorText } from "../../shared/error-text.ts";
import { AuthError, type Authenticate } from "../auth/bearer.ts";
import {
  compilePolicy,
  parsePolicy,
  type Access,
  type AnonymousAccess,
  type PolicyRule,
} from "../auth/policy.ts";
import { readVar } from "../env-vars.ts";
import { guardOrigin, withCors } from "../http/cors.ts";
import { HttpError } from "../http/http-error.ts";
import { parseOriginList, type OriginPolicy } from "../http/origin.ts";
import { isLocalRequest, keyringOf } from "../state/keyring.ts";
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
  /**
   * What callers without a credential may do once `authenticate` has credentials configured:
   * `"none"` (the default: fail closed), `"read-only"` (list, read, and call tools annotated
   * `readOnlyHint: true`) or `"all"`.
   */
  anonymous?: AnonymousAccess;
  /**
   * Who may call which methods and names (default: the `MCP_POLICY` variable, a JSON array of
   * the same rules). See PolicyRule.
   */
  policy?: readonly PolicyRule[];
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

/** Where an endpoint's RFC 9728 protected resource metadata is served. */
export const METADATA_PREFIX = "/.well-known/oauth-protected-resource";

/** The metadata document's URL for the endpoint a request was sent to. */
export function resourceMetadataUrl(request: Request): string {
  const url = new URL(request.url);
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.origin}${METADATA_PREFIX}${path}`;
}

/**
 * Execution contexts a proxy in this isolate reads upstream catalogs with (see
 * `catalogReader`): a request made with one, and no credential, may list everything (and
 * nothing else), so a hub's catalog shows the tools its authenticated callers may call.
 */
const catalogReaders = new WeakSet<object>();
/** Execution contexts of calls from a proxy in this isolate, whose own request was checked. */
const inProcessContexts = new WeakSet<object>();

/** Marks a context as an in-process catalog reader: for a proxy's listing client only. */
export function catalogReader<T extends object>(ctx: T): T {
  catalogReaders.add(ctx);
  return inProcess(ctx);
}

/**
 * Marks a context a proxy of this isolate calls endpoints with: its requests' (made-up) host
 * is not held against the deployment's secrets, which the proxy's own request was checked for.
 */
export function inProcess<T extends object>(ctx: T): T {
  inProcessContexts.add(ctx);
  return ctx;
}

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
  let rules: Access["rules"] | undefined;
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
          waitUntil: (promise) => ctx.waitUntil(promise),
          coordination,
          keyring: await configured(() =>
            keyringOf(env, { local: inProcessContexts.has(ctx) || isLocalRequest(request) }),
          ),
          settings: settingsOf(env),
        };
        rules ??= await configured(() =>
          options.policy
            ? compilePolicy(options.policy)
            : parsePolicy(readVar(env, "MCP_POLICY"), "MCP_POLICY"),
        );
        const caller = await options.authenticate?.(request, env);
        runtime.access = {
          credentialsConfigured: options.authenticate
            ? (options.authenticate.configured?.(env) ?? true)
            : false,
          anonymous: options.anonymous ?? "none",
          rules,
          catalogReader: !caller && catalogReaders.has(ctx),
          metadataUrl: resourceMetadataUrl(request),
        };
        return withCors(await servePost(server, request, caller, runtime), origin);
      } catch (error) {
        return withCors(jsonResponse(failure(withChallenge(error, request))), origin);
      }
    },
  };
}

/** An AuthError's challenge names this endpoint's metadata document. */
function withChallenge(error: unknown, request: Request): unknown {
  if (!(error instanceof AuthError)) return error;
  return new AuthError(error.message, error.error, resourceMetadataUrl(request));
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
