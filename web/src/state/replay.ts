import { runCall } from "./calls.ts";
import { connectTo } from "./connection.ts";
import type { HistoryEntry } from "./history.ts";
import { drafts, selectedKey, session } from "./store.ts";

const keyOf = (kind: string, name: string) =>
  kind === "template" ? `template:${name}` : `${kind}:${name}`;

/** Opens a request again: reconnects if it was made elsewhere, fills the form, and sends it. */
export async function replay(
  request: Pick<HistoryEntry, "url" | "kind" | "name" | "args">,
  send: boolean,
): Promise<void> {
  if (session.value?.url !== request.url && !(await connectTo(request.url))) return;
  const key = keyOf(request.kind, request.name);
  drafts.value = { ...drafts.value, [key]: request.args };
  selectedKey.value = key;
  if (send) await runCall(request.kind, request.name, request.args);
}
