import { signal } from "@preact/signals";
import type { SentRequest } from "../../../shared/curl.ts";
import { notify } from "./store.ts";

/** The request being copied, or undefined when the dialog is closed. */
export const copying = signal<SentRequest | undefined>(undefined);

export async function copyText(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify(`Copied ${what}.`);
  } catch {
    notify(`Select the ${what} and copy it (the clipboard is not available here).`);
  }
}
