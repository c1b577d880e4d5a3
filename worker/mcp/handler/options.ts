import type { Authenticate } from "../../auth/bearer.ts";
import type { AnonymousAccess, PolicyEngine } from "../../auth/access.ts";
import type { Settings } from "../runtime.ts";
import type { DurableCoordination, LimitSettings } from "../ports.ts";
import type { LogSetting } from "../observe/log.ts";
import type { WorkerContext } from "../request/in-process.ts";

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
