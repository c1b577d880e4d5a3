/** What the JSON tab's text says: a value, or where it stops parsing. */
export type Draft =
  { ok: true; value: unknown } | { ok: false; message: string; line: number; column: number };

/** Pretty JSON as the JSON tab shows a value. */
export function formatJson(value: unknown): string {
  return JSON.stringify(value ?? {}, null, 2);
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/**
 * Parses the JSON tab's text. The text itself is never rewritten here: a draft that does not
 * parse stays as typed, and the error says where (line and column) it stops.
 */
export function parseDraft(text: string): Draft {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = Number(/position (\d+)/.exec(message)?.[1] ?? text.length);
    const lineCol = /line (\d+) column (\d+)/.exec(message);
    const where = lineCol
      ? { line: Number(lineCol[1]), column: Number(lineCol[2]) }
      : position(text, offset);
    return { ok: false, message: message.replace(/^JSON\.parse: /, ""), ...where };
  }
}

/**
 * Whether the text already says `value` (then a form edit elsewhere need not rewrite it, and
 * the user's own formatting survives).
 */
export function textSays(text: string, value: unknown): boolean {
  const draft = parseDraft(text);
  return draft.ok && JSON.stringify(draft.value) === JSON.stringify(value);
}
