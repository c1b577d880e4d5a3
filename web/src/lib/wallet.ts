import { isRecord } from "./json.ts";

/** A value a tool returned that a later call may take back (a cursor, an `analysis` handle). */
export type Handle = { key: string; value: string; tool: string; at: number };

// Member names that carry handles, and values that look like opaque tokens.
const HANDLE_KEY =
  /(^|_)(id|ids|handle|cursor|next|next_cursor|token|analysis|session|state|ref)$/i;
const OPAQUE = /^[A-Za-z0-9_\-.~+/=:]{16,}$/;

/** Handle-like strings in a structured result: by member name, or by an opaque look. */
export function collectHandles(value: unknown, tool: string, at: number, path = ""): Handle[] {
  if (Array.isArray(value))
    return value.slice(0, 50).flatMap((v) => collectHandles(v, tool, at, path));
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([key, member]) => {
    if (typeof member === "string")
      return HANDLE_KEY.test(key) && (OPAQUE.test(member) || member.length >= 6)
        ? [{ key, value: member, tool, at }]
        : [];
    return path.split(".").length > 4 ? [] : collectHandles(member, tool, at, `${path}.${key}`);
  });
}

/** Adds handles, newest first, dropping repeats of the same value and keeping at most `limit`. */
export function addHandles(
  wallet: readonly Handle[],
  found: readonly Handle[],
  limit = 50,
): Handle[] {
  const values = new Set(found.map((h) => h.value));
  return [...found, ...wallet.filter((h) => !values.has(h.value))].slice(0, limit);
}

/**
 * The handles a form field may take: those returned under the field's own name, or named in
 * its description (`the next value of a previous page`); any, for a handle-like field name.
 */
export function offersFor(
  field: string,
  description: string | undefined,
  wallet: readonly Handle[],
): Handle[] {
  const text = (description ?? "").toLowerCase();
  const named = wallet.filter(
    (h) => h.key === field || new RegExp(`\\b${h.key.toLowerCase()}\\b`).test(text),
  );
  if (named.length > 0) return named;
  return HANDLE_KEY.test(field) ? [...wallet] : [];
}
