import { curlCommand as curlOf, type ShowHeader } from "../shared/curl.ts";
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
  const headers = [...request.headers].map(
    ([lower, value]) => [displayName(lower, given), value] as const,
  );
  const bySource: ShowHeader = (name, value) => {
    const source = given.sources[name];
    if (source === "EDGEMCP_TOKEN") return { expand: "Bearer $EDGEMCP_TOKEN" };
    if (source === "EDGEMCP_HEADERS") return { literal: "<from EDGEMCP_HEADERS>" };
    return { literal: value };
  };
  return curlOf({ ...request, method: "POST", headers }, bySource);
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
