import { Header } from "../../shared/protocol/headers.ts";
import { guardOrigin, withCors } from "../http/cors.ts";
import { HttpError } from "../http/http-error.ts";
import type { Served } from "./server/server.ts";
import { servePost } from "./pipeline.ts";
import type { Caller } from "../auth/bearer.ts";
import { registerOpener, type Runtime } from "./runtime.ts";
import { failure } from "./request/errors.ts";
import { httpReply, jsonResponse, type Outcome } from "./request/reply.ts";
import {
  asRequest,
  inProcessMarks,
  inProcessReply,
  registerEntry,
  type InProcessCall,
  type InProcessEntry,
  type WorkerContext,
} from "./request/in-process.ts";
import { authenticated, withChallenge } from "./handler/caller.ts";
import { bindingsOf, deploymentOf, type Bindings, type Deployment } from "./handler/configure.ts";
import { endpointAt, type LastEndpoint } from "./handler/endpoint.ts";
import type { McpAppOptions, McpHandler } from "./handler/options.ts";

export type { McpAppOptions, McpHandler } from "./handler/options.ts";
export { METADATA_PREFIX, resourceMetadataUrl } from "./handler/endpoint.ts";

/**
 * Serves one MCP server on any path it is given. Before the pipeline: the origin guard and
 * CORS preflight, 405 for anything but POST (no session to end, no standalone stream), the
 * deployment's configuration, and the caller. No framework on the request path.
 *
 * Reads `ALLOWED_ORIGINS`, `MAX_BODY_BYTES`, `EDGEMCP_LOG` and the limits' variables (see
 * `limits`); a server that links `sealing` reads its secrets (see `sealing`).
 */
export function mcpHandler(server: Served, options: McpAppOptions = {}): McpHandler {
  server.mounted?.(options.durable);
  // Settings come from options first, then from the Worker's variables, read once per isolate;
  // coordination and policy rules too, once they are read without a problem.
  let deployment: Deployment | undefined;
  let bindings: Bindings | undefined;
  // This endpoint's last URL (the hub's and the servers behind it each keep their own).
  const endpoints: LastEndpoint = {};
  /**
   * The checks after the HTTP gate, for every way in: the deployment's configuration, whether
   * a call comes from another endpoint of this Worker, and the caller.
   */
  async function opened(
    request: Request | Omit<InProcessCall, "message">,
    env: Cloudflare.Env,
    ctx: WorkerContext,
  ): Promise<{ caller: Caller | undefined; runtime: Runtime }> {
    const { coordination, rules } = (bindings ??= bindingsOf(options, env));
    const { settings, log } = (deployment ??= deploymentOf(options, env));
    // A call from the hub of this Worker (or its catalog reader) was counted there.
    const marked = inProcessMarks.get(ctx);
    // A proxy of this isolate calls with a made-up host; its own request was checked.
    const endpoint = endpointAt(request.url, endpoints);
    const local = marked !== undefined || endpoint.local;
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
      local,
      settings,
      log,
    };
    const caller = options.authenticate
      ? await authenticated(options.authenticate, asRequest(request), env, coordination, marked)
      : undefined;
    runtime.access = {
      credentialsConfigured: options.authenticate
        ? (options.authenticate.configured?.(env) ?? true)
        : false,
      anonymous: options.anonymous ?? "none",
      rules,
      catalogReader: !caller && marked === "catalog",
      metadataUrl: endpoint.metadataUrl,
      stepUp: options.authenticate?.stepUp,
    };
    return { caller, runtime };
  }
  /**
   * The handler: the HTTP gate, the caller, then the pipeline (given the message itself by a
   * caller of this isolate, an `InProcessCall`); `edge` makes the pipeline's answer what the caller
   * takes. The gate's own refusals are responses.
   */
  async function serve<Sent>(
    request: Request | InProcessCall,
    env: Cloudflare.Env,
    ctx: WorkerContext,
    edge: (answer: Response | Outcome, origin: string | null) => Sent,
  ): Promise<Sent | Response> {
    // A refused origin gets no CORS headers: the browser must not read the refusal either.
    let origin: string | null = null;
    try {
      // A caller of this isolate (the hub) hands over a POST's message past HTTP, with its own
      // client's headers (no Origin): the HTTP gate has nothing to check on it.
      if (request instanceof Request) {
        const given = request.headers.get("Origin");
        // Only a browser sends an Origin: a request without one has nothing for the guard.
        if (given !== null) {
          deployment ??= deploymentOf(options, env);
          const preflight = guardOrigin(request, deployment.policy, given);
          if (preflight) return preflight;
        }
        origin = given;
        // A 2025 client ending its session: the id holds no state, so it is ended already (the
        // id is not even read, so a malformed one is no reason to refuse).
        if (request.method === "DELETE" && request.headers.has(Header.sessionId))
          return withCors(new Response(null, { status: 204 }), origin);
        if (request.method !== "POST") {
          const message = `${request.method} is not supported: this MCP endpoint is stateless, send JSON-RPC messages with POST.`;
          throw new HttpError(405, message, { Allow: "POST, OPTIONS" });
        }
      }
      const { caller, runtime } = await opened(request, env, ctx);
      return edge(await servePost(server, request, caller, runtime), origin);
    } catch (error) {
      return withCors(jsonResponse(failure(withChallenge(error, request))), origin);
    }
  }
  const handler: McpHandler = {
    fetch(request, env, ctx) {
      return serve(request, env, ctx, httpEdge);
    },
  };
  // For a proxy of this isolate: the same checks after the HTTP gate, on the call itself.
  const serveInProcess: InProcessEntry = (call, env, ctx) => serve(call, env, ctx, inProcessReply);
  registerEntry(handler, serveInProcess);
  // For a proxy of this isolate that calls the method table (dispatch.ts): the same checks.
  registerOpener(handler, { server, open: opened });
  return handler;
}

/** The HTTP edge: the pipeline's answer as a response, with CORS for an origin the gate let in. */
function httpEdge(answer: Response | Outcome, origin: string | null): Response {
  return withCors(httpReply(answer), origin);
}
