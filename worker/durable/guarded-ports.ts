import { errorText } from "../../shared/error-text.ts";
import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { readVar } from "../env-vars.ts";
import { HttpError } from "../http/http-error.ts";
import type { Coordination, Limits } from "../mcp/ports.ts";
import { abandoningRefused } from "./abandoning-tasks.ts";

/** How long one call on coordination may take by default (a Durable Object answers in ms). */
const DEFAULT_COORDINATION_TIMEOUT_MS = 10_000;

/** How long one call on coordination may take: `COORDINATION_TIMEOUT_MS`, else 10 s. */
export function coordinationTimeoutMs(env: Cloudflare.Env): number {
  return Number(readVar(env, "COORDINATION_TIMEOUT_MS")) || DEFAULT_COORDINATION_TIMEOUT_MS;
}

/**
 * A rate limiter used outside an MCP endpoint (the relay's slots), bounded and answering 503
 * as the endpoint's own ports do (see `guarded`).
 */
export function guardedLimits(limits: Limits, timeoutMs: number): Limits {
  return guardedPort("The rate limiter", limits, timeoutMs);
}

/**
 * Ports refused when they hold a bare Durable Object namespace; each call on them bounded by
 * `timeoutMs` (see `guarded`).
 */
export function checkedCoordination(given: Coordination, timeoutMs: number): Coordination {
  const ports: unknown[] = Object.values(given);
  if (!ports.some((port) => typeof Reflect.get(Object(port), "idFromName") === "function"))
    return guarded(given, timeoutMs);
  throw new Error(
    "the durable option gave bare Durable Object namespaces: return durableObjects({ ... }) from edgemcp/durable.",
  );
}

/** A call on coordination that did not settle in time. */
class NoAnswer extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/**
 * The ports with their failures made clear: a task store, listen hub, limiter or rendezvous
 * that throws (its object unreachable, overloaded, broken) answers the caller 503
 * "unavailable", logged with the details, instead of an internal error; one that does not
 * answer within `timeoutMs` (0: no bound) answers 503 "did not answer in time" rather than
 * holding the request without end; a task whose create was so refused is abandoned (see
 * `abandoningRefused`). Protocol refusals pass through as they are. Waits that are
 * meant to last (a call watching for its cancellation, a 2025 call waiting for its client's
 * answer, a listen stream's body) are not calls on a port here, and are not bounded.
 */
function guarded(given: Coordination, timeoutMs: number): Coordination {
  const { tasks, listen, limits, rounds, cancellation, serverRequests } = given;
  const guard = <T extends object>(what: string, port: T) => guardedPort(what, port, timeoutMs);
  return {
    ...given,
    ...(tasks
      ? {
          tasks: {
            forCaller: (server, subject, waitUntil) =>
              abandoningRefused(
                guard("The task store", tasks.forCaller(server, subject, waitUntil)),
                waitUntil,
              ),
          },
        }
      : {}),
    ...(listen ? { listen: guard("The listen hub", listen) } : {}),
    ...(limits ? { limits: guard("The rate limiter", limits) } : {}),
    ...(rounds ? { rounds: guard("The record of answered rounds", rounds) } : {}),
    ...(cancellation ? { cancellation: guard("Cancellation across instances", cancellation) } : {}),
    ...(serverRequests
      ? { serverRequests: guard("The relay of answers to server requests", serverRequests) }
      : {}),
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof Reflect.get(value, "then") === "function"
  );
}

/** `pending`, or a NoAnswer rejection once `ms` have passed without it settling. */
function within<T>(pending: PromiseLike<T>, ms: number): Promise<T> {
  if (ms <= 0) return Promise.resolve(pending);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoAnswer(ms)), ms);
  });
  return Promise.race([Promise.resolve(pending), late]).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
  });
}

/** `port`, whose methods' failures and silences become 503s naming `what`. */
function guardedPort<T extends object>(what: string, port: T, timeoutMs: number): T {
  const fail = (error: unknown): never => {
    if (error instanceof RpcError || error instanceof HttpError) throw error;
    if (error instanceof NoAnswer) {
      console.error(`${what} did not answer within ${error.ms} ms`);
      const seconds = Math.round(error.ms / 100) / 10;
      throw new RpcError(
        ErrorCode.InternalError,
        `${what} did not answer in time (${seconds} s). Try again shortly.`,
        undefined,
        503,
      );
    }
    console.error(`${what} failed: ${errorText(error)}`);
    throw new RpcError(
      ErrorCode.InternalError,
      `${what} is unavailable right now. Try again shortly.`,
      undefined,
      503,
    );
  };
  return new Proxy(port, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        try {
          const result: unknown = Reflect.apply(value, target, args);
          // A Durable Object stub's call answers with a thenable that is no Promise.
          return isThenable(result) ? within(result, timeoutMs).catch(fail) : result;
        } catch (error) {
          return fail(error);
        }
      };
    },
  });
}
