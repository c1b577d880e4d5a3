import * as z from "zod/mini";
import type { JsonRpcId } from "../../shared/protocol/messages.ts";
import { legacyInput } from "../mcp/durable.ts";
import type { Cancellation, Rounds, ServerRequests } from "../mcp/ports.ts";
import type { Rendezvous } from "./rendezvous.ts";

/**
 * Waits for the message posted under `name` (one kept from before `since`, when given, does not
 * count); rejects when `signal` aborts first.
 */
async function awaitMessage(
  namespace: DurableObjectNamespace<Rendezvous>,
  name: string,
  signal: AbortSignal,
  since?: number,
): Promise<string> {
  const url =
    since === undefined ? "https://rendezvous/wait" : `https://rendezvous/wait?since=${since}`;
  const response = await namespace.getByName(name).fetch(url, { signal });
  return await response.text();
}

/** Posts the message for `name`, kept `keepMs` when no one waits for it yet. */
async function postMessage(
  namespace: DurableObjectNamespace<Rendezvous>,
  name: string,
  message: string,
  keepMs?: number,
): Promise<void> {
  await namespace.getByName(name).post(message, keepMs);
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

const CancelMessageSchema = z.object({ reason: z.optional(z.string()) });

/** How long a call runs before it listens for cancellation from other instances. */
const WATCH_AFTER_MS = 100;
/** Clock difference tolerated between instances when matching a cancel to its call. */
const SKEW_MS = 1_000;
/**
 * How long a cancel no call waits for is kept: long enough for a call that has just started to
 * begin watching, not so long that it lingers after the call it was for.
 */
const KEEP_CANCEL_MS = 10_000;
const FINISHED = new Error("The call finished.");

function slot(key: string, id: JsonRpcId): string {
  return `cancel:${key}:${typeof id}:${String(id)}`;
}

/**
 * Cancellation across instances, one rendezvous object per caller, session and request id. Fast
 * calls never touch the Durable Object. A cancel reaches the call watching when it arrives and
 * is then spent; one that arrived early is kept briefly and applies when the call starts
 * watching, but one posted before the call started (a reused id) is dropped, and the call goes
 * on waiting for its own.
 */
export function cancellationOver(namespace: DurableObjectNamespace<Rendezvous>): Cancellation {
  return {
    async post(key, id, reason) {
      await postMessage(namespace, slot(key, id), JSON.stringify({ reason }), KEEP_CANCEL_MS);
    },
    watch(key, id, abort) {
      const since = Date.now() - SKEW_MS;
      let waiting: AbortController | undefined;
      const timer = setTimeout(async () => {
        waiting = new AbortController();
        try {
          const message = CancelMessageSchema.parse(
            JSON.parse(await awaitMessage(namespace, slot(key, id), waiting.signal, since)),
          );
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
