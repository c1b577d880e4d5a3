import { errorText } from "../../../shared/error-text.ts";
import type { PolicyEngine, Rules } from "../../auth/access.ts";
import { readVar } from "../../env-vars.ts";
import { HttpError } from "../../http/http-error.ts";
import { DEFAULT_SSE_BUFFER_BYTES } from "../../http/sse.ts";
import type { BoundCoordination } from "../ports.ts";
import type { Settings } from "../runtime.ts";
import type { McpAppOptions } from "./options.ts";

const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_KEEP_ALIVE_MS = 15_000;
const DEFAULT_LISTEN_MAX_MS = 30 * 60_000;
const DEFAULT_BODY_DEADLINE_MS = 10_000;

/** The endpoint's settings: its options first, then the Worker's variables, then the defaults. */
export function settingsFrom(options: McpAppOptions, env: Cloudflare.Env): Settings {
  return {
    maxBodyBytes:
      options.maxBodyBytes ?? (Number(readVar(env, "MAX_BODY_BYTES")) || DEFAULT_MAX_BODY),
    bodyDeadlineMs: options.bodyDeadlineMs ?? DEFAULT_BODY_DEADLINE_MS,
    keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
    sseBufferBytes: options.sseBufferBytes ?? DEFAULT_SSE_BUFFER_BYTES,
    listenMaxMs: options.listenMaxMs ?? DEFAULT_LISTEN_MAX_MS,
  };
}

/** No coordination: every feature that needs it is off (and refused clearly where asked for). */
const UNCOORDINATED: BoundCoordination = { ports: {}, limits: undefined };

/**
 * The endpoint's coordination, bound to its settings by the module that made it (`edgemcp/durable`:
 * the bounds on each call, the per-caller limits), which a server without `durable` never links.
 */
export function bound(options: McpAppOptions, env: Cloudflare.Env): BoundCoordination {
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
export function policyRules(
  engine: PolicyEngine | undefined,
  env: Cloudflare.Env,
): Rules | undefined {
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
export function configuredNow<T>(read: () => T): T {
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
