/** One HTTP request exactly as it was sent (header names as they are to be printed). */
export type SentRequest = {
  url: string;
  method: string;
  headers: readonly (readonly [string, string])[];
  body: string;
};

/**
 * How a header's value goes into a command: a `literal` is printed as it is (quoted), an
 * `expand` is shell text the shell expands when the command runs (`$EDGEMCP_TOKEN`), so a
 * secret stays where it came from.
 */
export type ShownValue = { literal: string } | { expand: string };

/** Decides how each header's value is shown: by where it came from, by its name, or as sent. */
export type ShowHeader = (name: string, value: string) => ShownValue;

const asSent: ShowHeader = (_name, value) => ({ literal: value });

/** Quotes a word for POSIX shells: single quotes, with embedded ones closed and escaped. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * One `Name: value` header as a shell word. An expanded value goes in double quotes, where the
 * name's `$`, backquote, `"` and `\` (all allowed in a header name) are escaped so that only the
 * value expands.
 */
export function headerWord(name: string, shown: ShownValue): string {
  if ("literal" in shown) return shellQuote(`${name}: ${shown.literal}`);
  return `"${name.replace(/[$`"\\]/g, "\\$&")}: ${shown.expand}"`;
}

/** The request as a curl command: the same method, URL, headers and body bytes. */
export function curlCommand(request: SentRequest, show: ShowHeader = asSent): string {
  // A method is a token; any but plain letters (none a client sends) is quoted all the same.
  const method = /^[A-Za-z]+$/.test(request.method) ? request.method : shellQuote(request.method);
  const parts = [`curl -sS -N -X ${method} ${shellQuote(request.url)}`];
  for (const [name, value] of request.headers)
    parts.push(`-H ${headerWord(name, show(name, value))}`);
  if (request.body !== "") parts.push(`--data-raw ${shellQuote(request.body)}`);
  return parts.join(" \\\n  ");
}
