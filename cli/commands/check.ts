import { keptAuthorization } from "../auth/signed-in.ts";
import { runChecks } from "../../shared/check/run-checks.ts";
import { reportText } from "../check-text.ts";
import { Exit, println } from "../io.ts";
import { jsonText } from "../terminal-text.ts";
import { serverCommand, UsageError } from "../options.ts";

/** The MCP Inspector's origin: the browser client a server is most likely to meet. */
const DEFAULT_ORIGIN = "http://localhost:6274";

const HELP = `Usage: edgemcp check <url> [options]

A conformance report for any MCP server: server/discover, headers against bodies, _meta and
version errors, every list with its cursors and cache hints, resource not-found, unknown
names, the 2025 initialize handshake, CORS for browser clients, and every message against the
protocol's schemas. It only reads: no tool is called. Exits 1 when a check fails (warnings,
for SHOULDs and optional features, do not), or when the server cannot be reached, so it can
gate a CI pipeline.

Options:
  --json                       print the report as JSON
  --origin <origin>            the browser origin for the CORS checks (default ${DEFAULT_ORIGIN});
                               given, also every hop a browser client needs (OAuth metadata,
                               /register, /token, WWW-Authenticate) and whether a relay helps
  --timeout <ms>               how long one request may take (default 15000)
  -H, --header "Name: value"   send a header with every request (repeatable)
      --bearer <token>         send "Authorization: Bearer <token>" (or set EDGEMCP_TOKEN)`;

/** `--origin`: a browser origin as a page's requests carry it (scheme, host, port if any; or null). */
function originOf(text: string | undefined): string {
  if (text === undefined) return DEFAULT_ORIGIN;
  // What a sandboxed frame or a file: page sends (RFC 6454 §7.3).
  if (text === "null") return text;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== text) {
    throw new UsageError(
      `--origin takes a browser origin: a scheme, a host and maybe a port, without a path (e.g. ${DEFAULT_ORIGIN}), got ${JSON.stringify(text)}.`,
    );
  }
  return text;
}

/** What to do about a server that answered the checks 401: sign in, or other credentials. */
function unauthorizedHint(url: URL, headers: Record<string, string>): string {
  const sent = Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
  return sent
    ? "The server refused the credentials sent (HTTP 401): the report shows what it shows a client without them."
    : `The server asks for credentials (HTTP 401): the report shows what it shows a stranger. Run "edgemcp login ${url.href}", or pass --bearer <token> or set EDGEMCP_TOKEN, and check again.`;
}

/** `edgemcp check`: runs the shared checks and prints the report; exit 1 on a failed check. */
export const check = serverCommand({
  help: HELP,
  accepts: ["json", "origin", "timeout"],
  rest: 0,
  run: async ({ values, url, given, timeoutMs }, io) => {
    const origin = originOf(values.origin);
    const headers = await keptAuthorization(url, given, io.env);
    const report = await runChecks(url.href, {
      headers,
      origin,
      // An origin asked for by name gets every hop a browser client on it needs.
      hops: values.origin !== undefined,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      stopIfUnreachable: true,
    });
    if (report.unreachable !== undefined) {
      // Nothing was checked: one line says why instead of a report of skipped checks.
      if (values.json) println(io.stdout, jsonText(report));
      println(io.stderr, `Could not reach ${url.href}: ${report.unreachable}`);
      return Exit.failed;
    }
    println(io.stdout, values.json ? jsonText(report) : reportText(report));
    if (report.unauthorized) println(io.stderr, unauthorizedHint(url, headers));
    return report.ok ? Exit.ok : Exit.failed;
  },
});
