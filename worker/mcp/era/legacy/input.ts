import { isJsonObject } from "../../../../shared/jsonrpc.ts";
import { ErrorCode, RpcError, ToolError } from "../../../../shared/protocol/errors.ts";
import type { JsonObject } from "../../../../shared/protocol/messages.ts";
import { refuseAsking } from "../../context/refused.ts";
import type { Asking, Notify } from "../../context/context.ts";
import { undeclared, type InputAnswers } from "../../input/answers.ts";
import { wireRequestNeeds } from "../../input/requests.ts";
import { missingCapabilities } from "../../input/requirements.ts";
import type { ClientCapabilities } from "../../../../shared/protocol/capabilities.ts";
import type { InputRelay } from "../../input/relay.ts";
import type { InputRequest } from "../../input/requests.ts";
import { SERVER_REQUEST_PREFIX } from "../../ports.ts";
import type { AskingSetup, EraAsking } from "../../define/input.ts";

/** How long a 2025 client has to answer a server-to-client request: five minutes. */
const ANSWER_TIMEOUT_MS = 300_000;

type Asker = (requests: Record<string, JsonObject>) => Promise<Record<string, unknown>>;

/**
 * Sends requests to a 2025-era client on the call's SSE stream and resolves with its raw
 * answers. Each answer, POSTed back by the client to any instance, reaches the waiting call
 * through `answerTo`, keyed by the request id.
 */
function legacyAsker(notify: Notify, signal: AbortSignal, answerTo: AnswerWait): Asker {
  return async (requests) => {
    // Once one request fails the others' answers no longer matter: `done` ends their waits.
    const done = new AbortController();
    const wait = AbortSignal.any([signal, done.signal, AbortSignal.timeout(ANSWER_TIMEOUT_MS)]);
    try {
      const entries = await Promise.all(
        Object.entries(requests).map(async ([key, request]) => {
          const id = `${SERVER_REQUEST_PREFIX}${crypto.randomUUID()}`;
          const method = String(request.method);
          // Send first, then wait: an answer that arrives before the wait is kept for it.
          const sent = notify({
            jsonrpc: "2.0",
            id,
            method,
            params: isJsonObject(request.params) ? request.params : {},
          });
          if (!sent) {
            throw new RpcError(
              ErrorCode.InvalidRequest,
              `Cannot send ${method} to a client that does not accept text/event-stream.`,
            );
          }
          const response: unknown = JSON.parse(await answerTo(id, wait));
          if (!isJsonObject(response))
            throw new ToolError(`The client sent a malformed answer to ${method}.`);
          if (isJsonObject(response.error)) {
            throw new ToolError(
              `The client refused ${method}: ${String(response.error.message ?? "no reason given")}`,
            );
          }
          return [key, response.result] as const;
        }),
      );
      return Object.fromEntries(entries);
    } finally {
      done.abort(new Error("The call no longer waits for this answer."));
    }
  };
}

/** Waits for the client's answer to the server-to-client request `id` (rejects when `signal` aborts). */
export type AnswerWait = (id: string, signal: AbortSignal) => Promise<string>;

/**
 * `ctx.input` and `ctx.relay` for 2025-era clients, over server-to-client requests: what a
 * `serverRequests` port gives, around how it waits for answers.
 */
export function legacyInput(notify: Notify, signal: AbortSignal, answerTo: AnswerWait): Asking {
  const ask = legacyAsker(notify, signal, answerTo);
  const input = async <T extends Record<string, InputRequest<unknown>>>(
    requests: T,
  ): Promise<InputAnswers<T>> => {
    const wire = Object.fromEntries(
      Object.entries(requests).map(([key, r]) => [
        key,
        { method: r.method, params: r.params ?? {} },
      ]),
    );
    const raw = await ask(wire);
    const out: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(requests)) {
      const parsed = request.parse(raw[key]);
      if (!parsed.ok)
        throw new ToolError(
          `The client's answer to ${request.method} is not valid: ${parsed.reason}`,
        );
      out[key] = parsed.value;
    }
    return out as InputAnswers<T>;
  };
  const relay: InputRelay = { state: undefined, responses: {}, ask: (requests) => ask(requests) };
  return { input, relay };
}

/**
 * `ctx.input` for a 2025 method that may ask: requests on the call's stream, whose answers wait
 * for the client (there is no round to end), when a `serverRequests` port brings them back.
 */
export async function legacyAsking(setup: AskingSetup): Promise<EraAsking> {
  const { serverRequests } = setup.coordination;
  const capabilities = setup.info.clientCapabilities;
  return declaredOnly(
    serverRequests ? serverRequests.asking(setup.send, setup.cancel.signal) : NO_RENDEZVOUS,
    capabilities,
  );
}

/**
 * `asking`, refusing before anything is sent a request the client did not declare or its
 * version does not have (`capabilities` holds only what both allow): the same -32021 a 2026
 * call gets, rather than a request the client could only refuse.
 */
function declaredOnly(asking: Asking, capabilities: ClientCapabilities): Asking {
  const { relay } = asking;
  return {
    input(requests) {
      for (const request of Object.values(requests)) {
        if (!request.allowedBy(capabilities)) {
          const need = missingCapabilities(request.needs, capabilities) ?? request.needs;
          return Promise.reject(undeclared(request.method, need));
        }
      }
      return asking.input(requests);
    },
    relay: {
      state: relay.state,
      responses: relay.responses,
      ask(requests, next) {
        for (const request of Object.values(requests)) {
          const need = wireRequestNeeds(request, capabilities);
          if (need) return Promise.reject(undeclared(String(request.method), need));
        }
        return relay.ask(requests, next);
      },
    },
  };
}

const NO_RENDEZVOUS = /* @__PURE__ */ refuseAsking(
  "This server cannot ask 2025-era clients for input: no rendezvous Durable Object is bound.",
);
