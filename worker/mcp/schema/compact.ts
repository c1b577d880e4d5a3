/**
 * Drops what zod adds that says nothing `type` and `format` do not, and costs tokens in every
 * list: the ±(2^53 - 1) bounds of `z.int()` (`"type": "integer"` says it) and the long regular
 * expression beside a standard `format` (`"format": "date-time"` says it). Bounds and patterns
 * an author set are kept; the server still validates arguments with the zod schema itself.
 */
export function compact(def: object, json: Record<string, unknown>): void {
  if (json.type === "integer") {
    if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
    if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
  }
  // A string format schema carries its own regular expression; an author's `.regex()` is another.
  const own: unknown = Reflect.get(def, "pattern");
  if (typeof json.format === "string" && own instanceof RegExp && json.pattern === own.source)
    delete json.pattern;
}
