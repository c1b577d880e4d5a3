import { signal } from "@preact/signals";
import { decodePermalink, type Permalink } from "../lib/permalink.ts";
import { connectTo } from "./connection.ts";
import { drafts, eraChoice, headerRows, selectedKey, targetUrl } from "./store.ts";

/** The link the page was opened from (or why it could not be read). */
export const openedLink = signal<Permalink | string | undefined>(undefined);

/**
 * Opens the request a permalink describes: connects where it was made (secret headers must be
 * filled in by the user), selects the item and fills its form. It never sends by itself.
 */
export async function openPermalink(hash: string): Promise<void> {
  const link = decodePermalink(hash);
  openedLink.value = link;
  if (link === undefined || typeof link === "string") return;
  targetUrl.value = link.url;
  eraChoice.value = link.era;
  headerRows.value = [
    ...Object.entries(link.headers ?? {}).map(([name, value]) => ({ name, value })),
    ...(link.secretHeaders ?? []).map((name) => ({ name, value: "" })),
  ];
  const key = `${link.kind}:${link.name}`;
  drafts.value = { ...drafts.value, [key]: link.args };
  if (await connectTo(link.url, link.era)) selectedKey.value = key;
}
