import { computed, signal } from "@preact/signals";
import type { RequestKind } from "../lib/permalink.ts";
import { argumentsOf, requestOf, whyNotReady } from "../lib/readiness.ts";
import { runCall } from "./calls.ts";
import { patternRound } from "./pattern-checks.ts";
import { drafts, selected, session } from "./store.ts";

/** Catalog keys whose arguments, edited as JSON text, do not parse at the moment. */
export const unparsedDrafts = signal<ReadonlySet<string>>(new Set());

/** Notes whether the JSON text of an item's arguments parses (the editor reports each change). */
export function noteDraftParses(key: string, parses: boolean): void {
  if (parses !== unparsedDrafts.value.has(key)) return;
  const next = new Set(unparsedDrafts.value);
  if (parses) next.delete(key);
  else next.add(key);
  unparsedDrafts.value = next;
}

/** The selected item's request as the send bar shows it. */
export type PendingRequest = {
  kind: RequestKind;
  name: string;
  args: unknown;
  /** Why it cannot be sent yet, in words; undefined when the arguments are ready. */
  blocked: string | undefined;
  /** Connected and nothing blocks it: what the Send button and Ctrl+Enter both go by. */
  ready: boolean;
};

export const selectedRequest = computed<PendingRequest | undefined>(() => {
  const entry = selected.value;
  if (!entry) return undefined;
  // Validated again when a pattern test answers.
  void patternRound.value;
  const args = argumentsOf(entry, drafts.value[entry.key]);
  const blocked = whyNotReady(entry, args, !unparsedDrafts.value.has(entry.key));
  return {
    ...requestOf(entry),
    args,
    blocked,
    ready: session.value !== undefined && blocked === undefined,
  };
});

/** Sends the selected item's request if it is ready; whether it was sent. */
export function sendSelected(): boolean {
  const request = selectedRequest.value;
  if (!request?.ready) return false;
  void runCall(request.kind, request.name, request.args);
  return true;
}
