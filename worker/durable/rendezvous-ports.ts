import * as z from "zod/mini";
import type { JsonRpcId } from "../../shared/protocol/messages.ts";
import { legacyInput } from "../mcp/era/legacy/input.ts";
import type { Cancellation, Rounds, ServerRequests } from "../mcp/ports.ts";
import type { Rendezvous } from "./rendezvous.ts";

/** Waits for the message posted under `name`; rejects when `signal` aborts first. */
async function awaitMessage(
  namespace: DurableObjectNamespace<Rendezvous>,
  name: string,
  signal: AbortSignal,
): Promise<string> {
  const response = await namespace.getByName(name).fetch("https://rendezvous/wait", { signal });
  return await response.text();
}

/** Posts the message for `name`. */
async function postMessage(
  namespace: DurableObjectNamespace<Rendezvous>,
  name: string,
  message: string,
): Promise<void> {
  await namespace.getByName(name).post(message);
}

/** Input from 2025 clients, each answer met by its call in a rendezvous object per request id. */
export function serverRequestsOver(namespace: DurableObjectNamespace<Rendezvous>): ServerRequests {
  const answerTo = (id: string, signal: AbortSignal) =>
    awaitMessage(namespace, `response:${id}`, signal);
  return {
    asking: (send, signal) => legacyInput(send, signal, answerTo),
    answer: (id, response) => postMessage(namespace, `response:${id}`, response),
  };
}

const CancelMessageSchema = z.object({ at: z.number(), reason: z.optional(z.string()) });

/** How long a call runs before it listens for cancellation from other instances. */
const WATCH_AFTER_MS = 100;
/** Clock difference tolerated between instances when matching a cancel to its call. */
const SKEW_MS = 1_000;
const FINISHED = new Error("The call finished.");

function slot(key: string, id: JsonRpcId): string {
  return `cancel:${key}:${typeof id}:${String(id)}`;
}

/**
 * Cancellation across instances, one rendezvous object per caller and request id. Fast calls
 * never touch the Durable Object; a cancel that arrived early is kept and applies on
 * registration, but one posted before the call started (a reused id) is ignored.
 */
export function cancellationOver(namespace: DurableObjectNamespace<Rendezvous>): Cancellation {
  return {
    async post(key, id, reason) {
      await postMessage(namespace, slot(key, id), JSON.stringify({ at: Date.now(), reason }));
    },
    watch(key, id, abort) {
      const startedAt = Date.now();
      let waiting: AbortController | undefined;
      const timer = setTimeout(async () => {
        waiting = new AbortController();
        try {
          const message = CancelMessageSchema.parse(
            JSON.parse(await awaitMessage(namespace, slot(key, id), waiting.signal)),
          );
          if (message.at >= startedAt - SKEW_MS)
            abort(message.reason ?? "The client cancelled the request.");
        } catch {
          // The call finished first (stop aborted the wait), or the object was unreachable.
        }
      }, WATCH_AFTER_MS);
      return () => {
        clearTimeout(timer);
        waiting?.abort(FINISHED);
      };
    },
  };
}

/** MRTR rounds made single-use: one rendezvous object per requestState nonce. */
export function roundsOver(namespace: DurableObjectNamespace<Rendezvous>): Rounds {
  return { claim: (nonce, ttlMs) => namespace.getByName(`round:${nonce}`).claim(ttlMs) };
}
