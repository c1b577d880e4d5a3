// Escape sequences a terminal acts on: CSI (cursor, colours, erase), OSC (window title,
// clipboard, hyperlinks) up to its terminator, DCS/SOS/PM/APC strings, and two-byte escapes;
// both the 7-bit (ESC [) and 8-bit (U+009B) introducers.
const SEQUENCES = new RegExp(
  [
    "(?:\\u001b\\[|\\u009b)[0-?]*[ -/]*[@-~]?",
    "(?:\\u001b\\]|\\u009d)[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c)?",
    "(?:\\u001b[PX^_]|[\\u0090\\u0098\\u009e\\u009f])[^\\u001b\\u009c]*(?:\\u001b\\\\|\\u009c)?",
    "\\u001b[ -/]*[0-~]?",
  ].join("|"),
  "g",
);
/**
 * Whether a character is a control character other than line feed and tab: a carriage return
 * or backspace can overwrite what was printed (a fake "ok" over a failure), a bell rings.
 */
export function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return (code < 0x20 && code !== 0x0a && code !== 0x09) || (code >= 0x7f && code <= 0x9f);
}

/**
 * Text safe to print on a terminal: what a server sent loses every escape sequence and control
 * character (so it cannot set the window title, write the clipboard or rewrite earlier lines),
 * keeping line feeds and tabs.
 */
export function terminalText(text: string): string {
  let out = "";
  for (const char of text.replace(SEQUENCES, "")) if (!isControl(char)) out += char;
  return out;
}

/**
 * A value as indented JSON that prints unchanged: JSON escapes C0 controls itself, and DEL and
 * the C1 controls are escaped here too, so `--json` output keeps every character a server sent.
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
