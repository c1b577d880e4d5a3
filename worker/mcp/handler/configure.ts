import { errorText } from "../../../shared/error-text.ts";
import type { PolicyEngine, Rules } from "../../auth/access.ts";
import { readVar } from "../../env-vars.ts";
import { HttpError } from "../../http/http-error.ts";
import { parseOriginList, type OriginPolicy } from "../../http/origin.ts";
import { DEFAULT_SSE_BUFFER_BYTES } from "../../http/sse.ts";
import { loggerFor, logSetting, type RequestLogger } from "../observe/log.ts";
import type { BoundCoordination } from "../ports.ts";
import type { Settings } from "../runtime.ts";
import type { McpAppOptions } from "./options.ts";

const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_KEEP_ALIVE_MS = 15_000;
const DEFAULT_LISTEN_MAX_MS = 30 * 60_000;
const DEFAULT_BODY_DEADLINE_MS = 10_000;

/** What an endpoint reads of its deployment without a way to fail: a value read once per isolate. */
export type Deployment = {
  /** Browser origins allowed besides the built-in ones. */
  policy: OriginPolicy;
  settings: Settings;
  log: RequestLogger | undefined;
};

/**
 * The endpoint's origins, settings and logger: its options first, then the Worker's variables,
 * then the defaults. One function rather than one per part: each is compiled by every new
 * isolate before its first answer.
 */
export function deploymentOf(options: McpAppOptions, env: Cloudflare.Env): Deployment {
  return {
    policy: {
      allowed: options.allowedOrigins ?? parseOriginList(readVar(env, "ALLOWED_ORIGINS")),
    },
    settings: {
      maxBodyBytes:
        options.maxBodyBytes ?? (Number(readVar(env, "MAX_BODY_BYTES")) || DEFAULT_MAX_BODY),
      bodyDeadlineMs: options.bodyDeadlineMs ?? DEFAULT_BODY_DEADLINE_MS,
      keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
      sseBufferBytes: options.sseBufferBytes ?? DEFAULT_SSE_BUFFER_BYTES,
      listenMaxMs: options.listenMaxMs ?? DEFAULT_LISTEN_MAX_MS,
    },
    log: loggerFor(logSetting(options.log, readVar(env, "EDGEMCP_LOG"))),
  };
}

/** What an endpoint binds from its deployment, which a misconfiguration can break. */
export type Bindings = { coordination: BoundCoordination; rules: Rules | undefined };

/**
 * The endpoint's coordination and policy rules. A problem is logged and answered 500 saying
 * what to fix, request after request, until the deployment is fixed.
 */
export function bindingsOf(options: McpAppOptions, env: Cloudflare.Env): Bindings {
  try {
    // Without a durable option there is nothing to bind (and nothing to compile at start-up).
    const coordination = options.durable ? bound(options, env) : UNCOORDINATED;
    return { coordination, rules: policyRules(options.policy, env) };
  } catch (error) {
    const message = errorText(error);
    console.error(message);
    throw new HttpError(500, `Server misconfigured: ${message}`);
  }
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
