import { signal } from "@preact/signals";
import { decodePermalink, type Permalink } from "../lib/permalink.ts";
import { connectTo } from "./connection.ts";
import { isDevTokenRow, originOf, switchHeaders } from "./credentials.ts";
import { drafts, eraChoice, headerRows, selectedKey, targetUrl } from "./store.ts";

/** The link the page was opened from (or why it could not be read). */
export const openedLink = signal<Permalink | string | undefined>(undefined);

/**
 * Opens the request a permalink describes: connects where it was made (secret headers must be
 * filled in by the user: a value already kept for that server stays), selects the item and
 * fills its form. The item is selected even when connecting fails (a server that wants a token
 * refuses the link's first connection), so its form is there once the person reconnects with
 * the token. It never sends by itself.
 */
export async function openPermalink(hash: string): Promise<void> {
  const link = decodePermalink(hash);
  openedLink.value = link;
  if (link === undefined || typeof link === "string") return;
  targetUrl.value = link.url;
  eraChoice.value = link.era;
  const origin = originOf(link.url);
  if (origin) switchHeaders(origin);
  // A dev identity is not a choice the person made for this link: the link starts anonymous.
  const known = (name: string) => {
    const row = headerRows.value.find((r) => r.name.toLowerCase() === name.toLowerCase());
    return row && !isDevTokenRow(row) ? row.value : "";
  };
  headerRows.value = [
    // What the link carried was shared by whoever made it: a link made from here shares it too.
    ...Object.entries(link.headers ?? {}).map(([name, value]) => ({
      name,
      value,
      shareable: true,
    })),
    ...(link.secretHeaders ?? []).map((name) => ({ name, value: known(name) })),
  ];
  fillRequest(link);
  await connectTo(link.url, link.era);
}

/** Selects the link's item and fills its form with the link's arguments. */
function fillRequest(link: Permalink): void {
  const key = `${link.kind}:${link.name}`;
  drafts.value = { ...drafts.value, [key]: link.args };
  selectedKey.value = key;
}

/**
 * Back from a sign-in this tab left for (popups blocked) to the link it was opened from, signed
 * in to `server`: the link's request is selected and filled again, on the connection the
 * sign-in made (not the link's headers: they were restored with it). A link for another server
 * is left alone. It never sends by itself.
 */
export function reopenRequest(hash: string, server: string): void {
  const link = decodePermalink(hash);
  if (link === undefined || typeof link === "string" || link.url !== server) return;
  openedLink.value = link;
  fillRequest(link);
}
