import type {
  Coordination,
  DurableCoordination,
  EndpointLimits,
  LimitSettings,
  Limits,
} from "../mcp/ports.ts";
import { countedAuthentication } from "./auth-failures.ts";
import { CountedCaller, limitSettings } from "./caller-limits.ts";
import { checkedCoordination, coordinationTimeoutMs } from "./guarded-ports.ts";

/**
 * Ports as an endpoint's coordination, for `mcpHandler(server, { durable })`: `durableObjects`
 * makes its ports over Durable Objects this way, and ports of one's own (or a test's fakes) go
 * through it too, `durable: () => coordinate({ limits })`. Bound to an endpoint, each call on a
 * port is bounded in time (503 when it fails or does not answer) and the `limits` port counts
 * each caller's requests, tool calls, listen streams, live tasks and failed authentications.
 */
export function coordinate(ports: Coordination): DurableCoordination {
  return {
    ports,
    bind({ env, timeoutMs, limits }) {
      const bound = checkedCoordination(ports, timeoutMs ?? coordinationTimeoutMs(env));
      return {
        ports: bound,
        limits: bound.limits ? endpointLimits(bound.limits, limitSettings(env, limits)) : undefined,
      };
    },
  };
}

/** An endpoint's limits over its (bounded) `limits` port. */
function endpointLimits(port: Limits, settings: LimitSettings): EndpointLimits {
  return {
    forCaller: (key) => new CountedCaller(port, key, settings),
    authenticate: (authenticate, request, env, inProcess) =>
      countedAuthentication(authenticate, request, env, port, inProcess),
  };
}
