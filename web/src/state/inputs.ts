import { signal } from "@preact/signals";
import type {
  CreateMessageParams,
  ElicitParams,
  InputHandlers,
} from "../../../shared/client/index.ts";
import type { CreateMessageResult, ElicitResult } from "../../../shared/protocol/input.ts";
import { roots } from "./store.ts";

/** A question the server asked that waits for the user: a form, a URL to visit, or a model turn. */
export type PendingInput =
  | {
      id: number;
      key: string;
      kind: "elicitation";
      params: ElicitParams;
      signal: AbortSignal | undefined;
      answer: (result: ElicitResult) => void;
    }
  | {
      id: number;
      key: string;
      kind: "sampling";
      params: CreateMessageParams;
      signal: AbortSignal | undefined;
      answer: (result: CreateMessageResult) => void;
    };

/** Questions waiting for the user, oldest first. */
export const pendingInputs = signal<PendingInput[]>([]);
/** Roots answers given without asking, for the round log. */
export const rootsAnswered = signal(0);
let nextId = 1;
/** How to refuse each waiting question, by id, when its connection ends. */
const refusals = new Map<number, (reason: Error) => void>();

function remove(id: number): void {
  refusals.delete(id);
  pendingInputs.value = pendingInputs.value.filter((p) => p.id !== id);
}

/**
 * Drops the questions of a connection that ended (the person connected elsewhere): each
 * handler fails, so the request or task that asked stops waiting for an answer.
 */
export function dropPendingInputs(): void {
  for (const refuse of [...refusals.values()])
    refuse(new Error("The connection ended before the answer."));
}

function ask<R>(
  make: (id: number, answer: (result: R) => void) => PendingInput,
  signal: AbortSignal | undefined,
): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const id = nextId++;
    const onAbort = () => {
      remove(id);
      reject(signal?.reason ?? new Error("The call ended before the answer."));
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    refusals.set(id, (reason) => {
      signal?.removeEventListener("abort", onAbort);
      remove(id);
      reject(reason);
    });
    pendingInputs.value = [
      ...pendingInputs.value,
      make(id, (result) => {
        signal?.removeEventListener("abort", onAbort);
        remove(id);
        resolve(result);
      }),
    ];
  });
}

/**
 * The client's input handlers: elicitation and sampling wait for the user (shown inline where
 * the call is); roots are answered at once from the editable roots list.
 */
export const inputHandlers: InputHandlers = {
  elicitation: (params, context) =>
    ask<ElicitResult>(
      (id, answer) => ({
        id,
        key: context.key,
        kind: "elicitation",
        params,
        signal: context.signal,
        answer,
      }),
      context.signal,
    ),
  sampling: (params, context) =>
    ask<CreateMessageResult>(
      (id, answer) => ({
        id,
        key: context.key,
        kind: "sampling",
        params,
        signal: context.signal,
        answer,
      }),
      context.signal,
    ),
  roots: () => {
    rootsAnswered.value++;
    return Promise.resolve({
      roots: roots.value.map((r) => ({ uri: r.uri, ...(r.name ? { name: r.name } : {}) })),
    });
  },
};
