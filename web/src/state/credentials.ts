import { signal } from "@preact/signals";
import { isRecord } from "../lib/json.ts";
import { isSecretHeader } from "../../../shared/secret-headers.ts";
import { load, save } from "./persist.ts";
import { devTokens, headerRows, rememberHeaders, type HeaderRow } from "./store.ts";

const HEADERS = "edgemcp.headers";

/**
 * Headers belong to the server they were entered for: the rows on screen are those of
 * `headerOrigin`, the other origins' rows wait here until the page connects there again. A new
 * origin starts with no headers, and the published dev tokens belong to this Worker alone.
 */
export const headerOrigin = signal("");
const kept = new Map<string, HeaderRow[]>();

/** When the rows were brought from another origin (the person agreed): that origin. */
export const headersFrom = signal<string | undefined>(undefined);

/** A question waiting for the person: may headers entered for one server go to another? */
export type CarryQuestion = {
  from: string;
  to: string;
  names: string[];
  answer(send: boolean): void;
};
export const carryQuestion = signal<CarryQuestion | undefined>(undefined);

export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

const isRows = (v: unknown): v is HeaderRow[] =>
  Array.isArray(v) &&
  v.every(
    (r) =>
      isRecord(r) &&
      typeof r.name === "string" &&
      typeof r.value === "string" &&
      (r.shareable === undefined || typeof r.shareable === "boolean"),
  );
const isKept = (v: unknown): v is Record<string, HeaderRow[]> =>
  isRecord(v) && Object.values(v).every(isRows);

/** Whether a row is one of this Worker's published dev tokens. */
export const isDevTokenRow = (row: HeaderRow): boolean =>
  row.name.toLowerCase() === "authorization" &&
  devTokens.value.some((t) => row.value === `Bearer ${t.token}`);

/** Restores remembered headers by origin (only kept when the person asked for that). */
export function restoreHeaders(origin: string): void {
  headerOrigin.value = origin;
  const stored = load(HEADERS, undefined, isKept);
  if (!stored) return;
  for (const [at, rows] of Object.entries(stored)) kept.set(at, rows);
  headerRows.value = kept.get(origin) ?? [];
  rememberHeaders.value = true;
}

/** Keeps every origin's headers in localStorage while "remember" is on; off forgets them all. */
export function persistHeaders(): void {
  if (!rememberHeaders.value) return save(HEADERS, undefined);
  const all = Object.fromEntries(kept);
  if (headerOrigin.value) all[headerOrigin.value] = headerRows.value;
  save(HEADERS, Object.fromEntries(Object.entries(all).filter(([, rows]) => rows.length > 0)));
}

/** Puts the rows on screen away under their origin and takes out another origin's, unasked. */
export function switchHeaders(to: string): void {
  if (to === headerOrigin.value) return;
  if (headerOrigin.value) kept.set(headerOrigin.value, headerRows.value);
  headerRows.value = kept.get(to) ?? [];
  headerOrigin.value = to;
  headersFrom.value = undefined;
  persistHeaders();
}

function ask(from: string, to: string, names: string[]): Promise<boolean> {
  carryQuestion.value?.answer(false);
  return new Promise((resolve) => {
    carryQuestion.value = {
      from,
      to,
      names,
      answer: (send) => {
        carryQuestion.value = undefined;
        resolve(send);
      },
    };
  });
}

/**
 * Makes the rows on screen those for the URL's origin before connecting there. An origin the
 * page has no headers for starts anonymous, unless the person, asked first, sends the
 * credentials they entered for the previous one there too (dev tokens never go elsewhere).
 */
export async function headersForUrl(url: string): Promise<void> {
  const to = originOf(url);
  const from = headerOrigin.value;
  if (to === undefined || to === from) return;
  const carried = headerRows.value.filter(
    (r) => r.name.trim() !== "" && r.value.trim() !== "" && !isDevTokenRow(r),
  );
  const secrets = carried.filter((r) => isSecretHeader(r.name)).map((r) => r.name.trim());
  const own = kept.get(to);
  switchHeaders(to);
  if ((own === undefined || own.length === 0) && secrets.length > 0 && from !== "") {
    if (await ask(from, to, [...new Set(secrets)])) {
      headerRows.value = carried;
      headersFrom.value = from;
      persistHeaders();
    }
  }
}
