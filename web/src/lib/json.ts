/** JSON values as the playground edits them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonRecord = { [key: string]: Json };

/** A path into a JSON value: property names and array indexes. */
export type Path = readonly (string | number)[];

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value at a path, or undefined. */
export function getAt(value: unknown, path: Path): unknown {
  let current = value;
  for (const key of path) {
    if (Array.isArray(current) && typeof key === "number") current = current[key];
    else if (isRecord(current)) current = current[String(key)];
    else return undefined;
  }
  return current;
}

/**
 * A copy of `value` with `next` at `path` (undefined removes an object member); missing
 * containers on the way are created as objects or arrays, by the key's type.
 */
export function setAt(value: unknown, path: Path, next: unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return next;
  if (typeof key === "number") {
    const array = Array.isArray(value) ? [...(value as unknown[])] : [];
    array[key] = setAt(array[key], rest, next);
    return array;
  }
  const record: Record<string, unknown> = isRecord(value) ? { ...value } : {};
  const child = setAt(record[key], rest, next);
  if (child === undefined) delete record[key];
  else record[key] = child;
  return record;
}

/** The path as a JSON Pointer (`/a/0/b`), for matching validator output. */
export function pointerOf(path: Path): string {
  return path.map((k) => "/" + String(k).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}
