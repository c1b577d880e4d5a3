import { checkHops } from "../../../shared/check/hops.ts";
import { McpError } from "../../../shared/client/index.ts";
import type { CorsFacts, Facts } from "../lib/doctor.ts";
import { headersFrom } from "./credentials.ts";
import { recordingFetch } from "./recording-fetch.ts";
import { probeSseTransport } from "./sse-transport-probe.ts";
import { exchanges } from "./wire.ts";
import { browserHopProbe } from "./hop-probe.ts";
import { endpoints } from "./store.ts";

// Headers an MCP client sends that make a browser ask the server first (preflight).
const PREFLIGHTED: readonly [string, string][] = [
  ["Content-Type", "application/json"],
  ["MCP-Protocol-Version", "2026-07-28"],
  ["Mcp-Method", "server/discover"],
  ["Mcp-Name", "probe"],
  ["Mcp-Param-Probe", "1"],
  ["Authorization", "Bearer probe"],
];

/**
 * Finds out why a cross-origin fetch failed without an answer: is the server there at all
 * (an opaque no-cors request), does it allow this origin (a request without custom headers),
 * and which MCP header its preflight refuses (one header per request).
 */
export async function probeCors(url: string): Promise<CorsFacts> {
  const record = recordingFetch();
  const attempt = (init: RequestInit) =>
    record(url, { method: "POST", body: "{}", ...init }).then(
      (r) => (void r.body?.cancel(), true),
      () => false,
    );
  const reachable = await fetch(url, { method: "POST", mode: "no-cors", body: "{}" }).then(
    () => true,
    () => false,
  );
  if (!reachable) return { reachable, allowsOrigin: false, refusedHeaders: [] };
  const allowsOrigin = await attempt({ headers: { "Content-Type": "text/plain" } });
  if (!allowsOrigin) return { reachable, allowsOrigin, refusedHeaders: [] };
  const refusedHeaders: string[] = [];
  for (const [name, value] of PREFLIGHTED)
    if (!(await attempt({ headers: { [name]: value } }))) refusedHeaders.push(name);
  return { reachable, allowsOrigin, refusedHeaders };
}

/**
 * What the doctor needs to know about a failed connection, gathered from the error and the wire;
 * a cross-origin failure (no answer, or a 403) also gets every hop checked. `custom`: the names
 * of the headers the connection sends besides the protocol's.
 */
export async function gatherFacts(
  url: string,
  error: unknown,
  custom: string[] = [],
): Promise<Facts> {
  const last = [...exchanges.value].reverse().find((e) => e.url === url && e.status !== undefined);
  const header = (name: string) =>
    last?.responseHeaders?.find(([n]) => n.toLowerCase() === name)?.[1];
  const err =
    error instanceof McpError
      ? {
          kind: error.kind,
          message: error.message,
          ...(error.status === undefined ? {} : { status: error.status }),
          ...(error.code === undefined ? {} : { code: error.code }),
          data: error.data,
        }
      : {
          kind: error instanceof TypeError ? "network" : "other",
          message: error instanceof Error ? error.message : String(error),
        };
  let crossOrigin: boolean;
  try {
    crossOrigin = new URL(url).origin !== location.origin;
  } catch {
    return {
      url,
      pageOrigin: location.origin,
      online: navigator.onLine,
      error: { kind: "other", message: `${url} is not a URL.` },
      endpoints: [],
    };
  }
  const cors =
    err.kind === "network" && crossOrigin && navigator.onLine ? await probeCors(url) : undefined;
  const hopsWanted =
    crossOrigin && navigator.onLine && (err.kind === "network" || last?.status === 403);
  const hops = hopsWanted
    ? await checkHops(browserHopProbe, url, location.origin, custom).catch(() => undefined)
    : undefined;
  const wwwAuthenticate = header("www-authenticate");
  // A POST refused with 404 or 405 may have gone to a server of the older HTTP+SSE transport.
  const refusedPost = last?.status === 404 || last?.status === 405;
  const sseEndpoint = refusedPost ? await probeSseTransport(url) : undefined;
  return {
    url,
    pageOrigin: location.origin,
    online: navigator.onLine,
    error: err,
    ...(last?.status === undefined || !last.startedAt
      ? {}
      : {
          response: {
            status: last.status,
            contentType: last.contentType ?? "",
            ...(wwwAuthenticate ? { wwwAuthenticate } : {}),
            ...(last.bodyText
              ? { bodyText: last.bodyText.slice(0, 500) }
              : last.frames[0]
                ? { bodyText: last.frames[0].data.slice(0, 500) }
                : {}),
          },
        }),
    ...(cors ? { cors } : {}),
    ...(sseEndpoint ? { sseEndpoint } : {}),
    ...(hops ? { hops } : {}),
    endpoints: endpoints.value.map((e) => e.path),
    ...(headersFrom.value ? { carriedFrom: headersFrom.value } : {}),
  };
}
