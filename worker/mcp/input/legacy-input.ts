import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";
import type { Rendezvous } from "../../durable/rendezvous.ts";
import { awaitMessage } from "../../durable/rendezvous-client.ts";
import { ToolError } from "../results.ts";
import type { Notify } from "../reply.ts";
import type { InputRequest } from "./requests.ts";
import type { InputAnswers } from "./session.ts";

/** How long a 2025 client has to answer a server-to-client request. */
const ANSWER_TIMEOUT_MS = 5 * 60_000;

/** Ids of requests this server sends; answers carrying them are routed back to the waiting call. */
export const SERVER_REQUEST_PREFIX = "edgemcp:";

/**
 * `ctx.input` for 2025-era clients: each request goes to the client on the call's SSE stream
 * as a JSON-RPC request, and its answer, POSTed back by the client to any instance, reaches
 * the waiting call through a Durable Object keyed by the request id.
 */
export function legacyInput(
  notify: Notify,
  signal: AbortSignal,
  rendezvous: DurableObjectNamespace<Rendezvous> | undefined,
) {
  return async <T extends Record<string, InputRequest<unknown>>>(
    requests: T,
  ): Promise<InputAnswers<T>> => {
    if (!rendezvous) {
      throw new RpcError(
        ErrorCode.InternalError,
        "This server cannot ask 2025-era clients for input: no rendezvous Durable Object is bound.",
      );
    }
    const wait = AbortSignal.any([signal, AbortSignal.timeout(ANSWER_TIMEOUT_MS)]);
    const entries = await Promise.all(
      Object.entries(requests).map(async ([key, request]) => {
        const id = `${SERVER_REQUEST_PREFIX}${crypto.randomUUID()}`;
        const answer = awaitMessage(rendezvous, `response:${id}`, wait);
        if (!notify({ jsonrpc: "2.0", id, method: request.method, params: request.params ?? {} })) {
          throw new RpcError(
            ErrorCode.InvalidRequest,
            `Cannot send ${request.method} to a client that does not accept text/event-stream.`,
          );
        }
        const response: unknown = JSON.parse(await answer);
        if (!isJsonObject(response))
          throw new ToolError(`The client sent a malformed answer to ${request.method}.`);
        if (isJsonObject(response.error)) {
          throw new ToolError(
            `The client refused ${request.method}: ${String(response.error.message ?? "no reason given")}`,
          );
        }
        const parsed = request.parse(response.result);
        if (!parsed.ok)
          throw new ToolError(
            `The client's answer to ${request.method} is not valid: ${parsed.reason}`,
          );
        return [key, parsed.value] as const;
      }),
    );
    return Object.fromEntries(entries) as InputAnswers<T>;
  };
}
