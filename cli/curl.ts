import { Header } from "../shared/protocol/headers.ts";
import type { WireRequest } from "./capture.ts";
import type { McpClient } from "../shared/client/index.ts";
import { println, type Io } from "./io.ts";
import type { RequestHeaders } from "./options.ts";

// Headers print with their usual spelling; fetch hands them back lower-cased.
const CANONICAL = new Map(
  [...Object.values(Header), "Content-Type", "Accept", "Authorization"].map((name) => [
    name.toLowerCase(),
    name,
  ]),
);

/** Quotes a word for POSIX shells. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

function displayName(name: string, given: RequestHeaders): string {
  const own = Object.keys(given.headers).find((key) => key.toLowerCase() === name);
  if (own) return own;
  if (name.startsWith(Header.paramPrefix.toLowerCase())) {
    const suffix = name
      .slice(Header.paramPrefix.length)
      .replace(/(^|-)([a-z])/g, (part) => part.toUpperCase());
    return `${Header.paramPrefix}${suffix}`;
  }
  return CANONICAL.get(name) ?? name;
}

/**
 * The curl command for a request. Secrets that came from the environment stay there: the
 * token prints as `$EDGEMCP_TOKEN`, and `EDGEMCP_HEADERS` values are masked.
 */
export function curlCommand(request: WireRequest, given: RequestHeaders): string {
  const lines = [`curl -sS -N -X POST ${shellQuote(request.url)}`];
  for (const [lower, value] of request.headers) {
    const name = displayName(lower, given);
    const source = given.sources[name];
    if (source === "EDGEMCP_TOKEN") lines.push(`-H "${name}: Bearer $EDGEMCP_TOKEN"`);
    else if (source === "EDGEMCP_HEADERS")
      lines.push(`-H ${shellQuote(`${name}: <from EDGEMCP_HEADERS>`)}`);
    else lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  lines.push(`--data-raw ${shellQuote(request.body)}`);
  return lines.join(" \\\n  ");
}

/**
 * Prints a captured request as curl. A 2025 server's request carries the session the command
 * opened, which is left open for it.
 */
export function printCurl(io: Io, request: WireRequest, given: RequestHeaders, client: McpClient) {
  if (client.sessionId !== undefined) {
    println(io.stdout, "# A 2025 server: this reuses the session edgemcp opened (Mcp-Session-Id).");
  }
  println(io.stdout, curlCommand(request, given));
}
