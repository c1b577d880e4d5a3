import { errorText } from "../../shared/error-text.ts";
import { Header } from "../../shared/protocol/headers.ts";
import { AuthError, type Authenticate, type Caller } from "../auth/bearer.ts";
import type { AnonymousAccess, PolicyEngine, Rules } from "../auth/access.ts";
import { readVar } from "../env-vars.ts";
import { guardOrigin, withCors } from "../http/cors.ts";
import { HttpError } from "../http/http-error.ts";
import { isLocalHost, parseOriginList, type OriginPolicy } from "../http/origin.ts";
import { DEFAULT_SSE_BUFFER_BYTES } from "../http/sse.ts";
import { keyringWhenNeeded, refuseWeakConfiguredSecrets } from "../state/keyring.ts";
import type { Served } from "./server/server.ts";
import { servePost } from "./pipeline.ts";
import type { Runtime, Settings } from "./runtime.ts";
import type {
  BoundCoordination,
  DurableCoordination,
  EndpointLimits,
  LimitSettings,
} from "./ports.ts";
import { loggerFor, logSetting, type LogSetting, type RequestLogger } from "./observe/log.ts";
import { failure } from "./request/errors.ts";
import { httpReply, jsonResponse, type Outcome } from "./request/reply.ts";
import { registerServer } from "./tasks/registry.ts";
import {
  inProcessMarks,
  inProcessReply,
  registerEntry,
  type InProcessCall,
  type InProcessEntry,
  type WorkerContext,
} from "./request/in-process.ts";

export type McpAppOptions = Partial<Settings> & {
  /**
   * What each caller may use, counted when `durable` gives `limits` (default: the variables
   * `RATE_LIMIT_REQUESTS`, `RATE_LIMIT_TOOL_CALLS`, `MAX_LISTEN_STREAMS`, `MAX_LIVE_TASKS`,
   * then 600 requests and 120 calls of one tool a minute, 10 listen streams, 20 live tasks).
   */
  limits?: Partial<LimitSettings>;
  /** Extra browser origins allowed (default: the `ALLOWED_ORIGINS` variable, comma-separated). */
  allowedOrigins?: string[];
  /**
   * Coordination across instances (cancellation, listen streams, tasks):
   * `(env) => durableObjects({ rendezvous: env.MCP_RENDEZVOUS, ... })` from `edgemcp/durable`.
   */
  durable?: (env: Cloudflare.Env) => DurableCoordination;
  /**
   * How long one call on `durable`'s objects may take before the request is answered 503
   * (default: the `COORDINATION_TIMEOUT_MS` variable, else 10 s; 0: no bound).
   */
  coordinationTimeoutMs?: number;
  /** Establishes the caller; without it every caller is anonymous. */
  authenticate?: Authenticate;
  /**
   * One structured entry per request (method, name, subject, era, status, duration, error,
   * correlation and trace ids): `"errors"` (default: a JSON line on `console.error` for each
   * request the server failed), `"requests"` (a JSON line for every request), `"off"`, or a
   * function receiving each entry. Default: the `EDGEMCP_LOG` variable, else `"errors"`.
   */
  log?: LogSetting;
  /**
   * What callers without a credential may do once `authenticate` has credentials configured:
   * `"none"` (the default: fail closed), `"read-only"` (list, read, and call tools annotated
   * `readOnlyHint: true`) or `"all"`.
   */
  anonymous?: AnonymousAccess;
  /**
   * The policy engine, for rules on who may call which methods and names: `accessPolicy()`
   * (rules from the `MCP_POLICY` variable) or `accessPolicy({ rules, names })`. Without it, only
   * `anonymous` decides, and a Worker with `MCP_POLICY` set answers 500 rather than ignore it.
   */
  policy?: PolicyEngine;
};

/** A Worker handler: export it as the Worker, or call it from a router. */
export type McpHandler = {
  fetch(request: Request, env: Cloudflare.Env, ctx: WorkerContext): Promise<Response>;
};

const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_KEEP_ALIVE_MS = 15_000;
const DEFAULT_LISTEN_MAX_MS = 30 * 60_000;
const DEFAULT_BODY_DEADLINE_MS = 10_000;

/** Where an endpoint's RFC 9728 protected resource metadata is served. */
export const METADATA_PREFIX = "/.well-known/oauth-protected-resource";

/** The metadata document's URL for the endpoint a request was sent to. */
export function resourceMetadataUrl(request: Request): string {
  return endpointAt(request.url).metadataUrl;
}

/** What the handler reads from a request's URL: whether it went to localhost, and its metadata URL. */
type Endpoint = { url: string; local: boolean; metadataUrl: string };

// The last URL read: an endpoint is asked at the same URL request after request, so its URL is
// parsed once, not once per request. The entry depends on the URL alone.
let lastEndpoint: Endpoint | undefined;

function endpointAt(url: string): Endpoint {
  if (lastEndpoint?.url === url) return lastEndpoint;
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, "");
  const metadataUrl = `${parsed.origin}${METADATA_PREFIX}${path}`;
  return (lastEndpoint = { url, local: isLocalHost(parsed.hostname), metadataUrl });
}

/**
 * Serves one MCP server on any path it is given. Before the pipeline: the origin guard and
 * CORS preflight, 405 for anything but POST (no session to end, no standalone stream), the
 * deployment's configuration, and the caller. No framework on the request path.
 *
 * Reads the Worker's `EDGEMCP_SECRET` (it seals handles, cursors and requestState; demanded
 * when something first needs sealing), `EDGEMCP_PREVIOUS_SECRETS` (comma-separated, still
 * accepted after a rotation), `ALLOWED_ORIGINS`, `MAX_BODY_BYTES`, `EDGEMCP_LOG` and the limits'
 * variables (see `limits`).
 */
export function mcpHandler(server: Served, options: McpAppOptions = {}): McpHandler {
  registerServer(server, options.durable);
  // Settings come from options first, then from the Worker's variables, read once per isolate.
  let policy: OriginPolicy | undefined;
  let settings: Settings | undefined;
  let coordination: BoundCoordination | undefined;
  let logger: { log: RequestLogger | undefined } | undefined;
  const loggerOf = (env: Cloudflare.Env) =>
    (logger ??= { log: loggerFor(logSetting(options.log, readVar(env, "EDGEMCP_LOG"))) }).log;
  let rules: { of: Rules | undefined } | undefined;
  const policyOf = (env: Cloudflare.Env) =>
    (policy ??= {
      allowed: options.allowedOrigins ?? parseOriginList(readVar(env, "ALLOWED_ORIGINS")),
    });
  const settingsOf = (env: Cloudflare.Env) =>
    (settings ??= {
      maxBodyBytes:
        options.maxBodyBytes ?? (Number(readVar(env, "MAX_BODY_BYTES")) || DEFAULT_MAX_BODY),
      bodyDeadlineMs: options.bodyDeadlineMs ?? DEFAULT_BODY_DEADLINE_MS,
      keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
      sseBufferBytes: options.sseBufferBytes ?? DEFAULT_SSE_BUFFER_BYTES,
      listenMaxMs: options.listenMaxMs ?? DEFAULT_LISTEN_MAX_MS,
    });
  /**
   * The handler: the HTTP gate, the caller, then the pipeline (given the message itself by a
   * caller of this isolate, `inProcess`); `edge` makes the pipeline's answer what the caller
   * takes. The gate's own refusals are responses.
   */
  async function serve<Sent>(
    request: Request,
    env: Cloudflare.Env,
    ctx: WorkerContext,
    edge: (answer: Response | Outcome, origin: string | null) => Sent,
    inProcess?: InProcessCall,
  ): Promise<Sent | Response> {
    // A refused origin gets no CORS headers: the browser must not read the refusal either.
    let origin: string | null = null;
    try {
      const preflight = guardOrigin(request, policyOf(env));
      if (preflight) return preflight;
      origin = request.headers.get("Origin");
      // A 2025 client ending its session: the id holds no state, so it is ended already (the
      // id is not even read, so a malformed one is no reason to refuse).
      if (request.method === "DELETE" && request.headers.has(Header.sessionId))
        return withCors(new Response(null, { status: 204 }), origin);
      if (request.method !== "POST") {
        const message = `${request.method} is not supported: this MCP endpoint is stateless, send JSON-RPC messages with POST.`;
        throw new HttpError(405, message, { Allow: "POST, OPTIONS" });
      }
      coordination ??= configuredNow(() => bound(options, env));
      // A call from the hub of this Worker (or its catalog reader) was counted there.
      const marked = inProcessMarks.get(ctx);
      // A proxy of this isolate calls with a made-up host; its own request was checked.
      const endpoint = endpointAt(request.url);
      const local = marked !== undefined || endpoint.local;
      if (!local) configuredNow(() => refuseWeakConfiguredSecrets(env));
      const runtime: Runtime = {
        env,
        // A method, not an arrow: bundlers keeping names would rename an arrow per request.
        waitUntil(promise) {
          ctx.waitUntil(promise);
        },
        // The hub's catalog reader counts nothing; its calls count only live tasks here.
        coordination: coordination.ports,
        limits: marked === "catalog" ? undefined : coordination.limits,
        forwarded: marked === "call",
        keyring: keyringWhenNeeded(env, { local }),
        settings: settingsOf(env),
        log: loggerOf(env),
      };
      rules ??= configuredNow(() => ({ of: policyRules(options.policy, env) }));
      const caller = options.authenticate
        ? await authenticated(options.authenticate, request, env, coordination.limits, marked)
        : undefined;
      runtime.access = {
        credentialsConfigured: options.authenticate
          ? (options.authenticate.configured?.(env) ?? true)
          : false,
        anonymous: options.anonymous ?? "none",
        rules: rules.of,
        catalogReader: !caller && marked === "catalog",
        metadataUrl: endpoint.metadataUrl,
        stepUp: options.authenticate?.stepUp,
      };
      return edge(await servePost(server, request, caller, runtime, inProcess), origin);
    } catch (error) {
      return withCors(jsonResponse(failure(withChallenge(error, request))), origin);
    }
  }
  const handler: McpHandler = {
    fetch(request, env, ctx) {
      return serve(request, env, ctx, httpEdge);
    },
  };
  // For a proxy of this isolate: the same checks, on a request with the call's headers and no body.
  const serveInProcess: InProcessEntry = (call, env, ctx) => {
    const { url, headers, signal } = call;
    const request = new Request(url, { method: "POST", headers, signal });
    return serve(request, env, ctx, inProcessReply, call);
  };
  registerEntry(handler, serveInProcess);
  return handler;
}

/** The HTTP edge: the pipeline's answer as a response, with CORS for an origin the gate let in. */
function httpEdge(answer: Response | Outcome, origin: string | null): Response {
  return withCors(httpReply(answer), origin);
}

/** An AuthError's challenge names this endpoint's metadata document. */
function withChallenge(error: unknown, request: Request): unknown {
  if (!(error instanceof AuthError)) return error;
  return new AuthError(error.message, error.error, resourceMetadataUrl(request));
}

/** No coordination: every feature that needs it is off (and refused clearly where asked for). */
const UNCOORDINATED: BoundCoordination = { ports: {}, limits: undefined };

/**
 * The endpoint's coordination, bound to its settings by the module that made it (`edgemcp/durable`:
 * the bounds on each call, the per-caller limits), which a server without `durable` never links.
 */
function bound(options: McpAppOptions, env: Cloudflare.Env): BoundCoordination {
  const given = options.durable?.(env);
  if (!given) return UNCOORDINATED;
  if (typeof given.bind !== "function")
    throw new Error(
      "the durable option must return durableObjects({ ... }) from edgemcp/durable (or coordinate(ports) from it, for ports of your own), not bare Durable Object namespaces or ports.",
    );
  const limits = options.limits;
  return given.bind({ env, timeoutMs: options.coordinationTimeoutMs, limits });
}

/** The caller, failed credentials counted where the endpoint counts limits (not in-process calls). */
function authenticated(
  authenticate: Authenticate,
  request: Request,
  env: Cloudflare.Env,
  limits: EndpointLimits | undefined,
  marked: string | undefined,
): Promise<Caller | undefined> | Caller | undefined {
  const inProcess = marked !== undefined;
  return limits
    ? limits.authenticate(authenticate, request, env, inProcess)
    : authenticate(request, env, { inProcess });
}

/**
 * The rules of the endpoint's policy engine. Without an engine, a policy in `MCP_POLICY` is
 * refused rather than ignored (a deployment that wrote rules expects them to hold).
 */
function policyRules(engine: PolicyEngine | undefined, env: Cloudflare.Env): Rules | undefined {
  if (engine) {
    if (typeof engine.rules !== "function")
      throw new Error(
        "the policy option takes a policy engine: policy: accessPolicy({ rules }) from edgemcp/server.",
      );
    return engine.rules(env);
  }
  if (readVar(env, "MCP_POLICY")?.trim())
    throw new Error(
      'MCP_POLICY is set, but this server links no policy engine to apply it: import { accessPolicy } from "edgemcp/server" and pass mcpHandler(server, { policy: accessPolicy() }), or unset MCP_POLICY.',
    );
  return undefined;
}

/** Reads part of the deployment's configuration; a problem is logged and answered 500. */
function configuredNow<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw misconfigured(error);
  }
}

/** A configuration problem: logged, and answered 500 saying what to fix. */
function misconfigured(error: unknown): HttpError {
  const message = errorText(error);
  console.error(message);
  return new HttpError(500, `Server misconfigured: ${message}`);
}
