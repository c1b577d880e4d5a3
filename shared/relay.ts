import { OversizedBodyError, readTextWithin } from "./bounded-body.ts";
import type { FetchLike } from "./client/options.ts";

/** Headers that reach the target without being named in `Relay-Headers` (`Mcp-*` by prefix). */
const MCP_HEADERS = new Set([
  "authorization",
  "accept",
  "content-type",
  "mcp-protocol-version",
  "last-event-id",
]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
/** The most the relay's own answers (a refusal, a page token) may weigh: they take a few lines. */
export const MAX_RELAY_ANSWER_BYTES = 64 * 1024;

/** The relay refused the exchange (its own answer, not the target's): the rule and why. */
export class RelayRefused extends Error {
  override readonly name = "RelayRefused";
  constructor(
    readonly status: number,
    /** The rule, as the relay names it: "relay-off", "host-not-listed", "internal-address"… */
    readonly rule: string,
    message: string,
  ) {
    super(message);
  }
}

/** Where the relay is, and how to get this page's token for it. */
export type RelayClientOptions = {
  /** The relay's URL, e.g. `${location.origin}/relay`. */
  relayUrl: string;
  /** The page token (`POST /relay/token`); `fresh` asks for a new one after a refusal. */
  token: (fresh: boolean) => Promise<string>;
  /** The fetch that carries the page's requests to the relay (default: the global one). */
  fetch?: FetchLike;
};

/**
 * A fetch that sends each request through the Worker's relay to the URL it is given, for a
 * server that does not allow this page with CORS: the headers go as set (names other than the
 * MCP ones listed in `Relay-Headers`), the method in `Relay-Method`, the answer comes back with
 * the target's status, headers and streamed body. A redirect is followed through the relay
 * (each hop checked by it), unless `redirect: "manual"` asks for it as a response with its
 * `Location`. The relay's own refusals throw RelayRefused.
 */
export function relayFetch(options: RelayClientOptions): FetchLike {
  const send = options.fetch ?? ((url, init) => fetch(url, init));
  const once = async (target: string, init: RequestInit, fresh: boolean): Promise<Response> => {
    const headers = relayHeaders(target, init, await options.token(fresh));
    const response = await send(options.relayUrl, {
      method: "POST",
      headers,
      body: init.body ?? null,
      ...(init.signal ? { signal: init.signal } : {}),
    });
    const rule = response.headers.get("Relay-Error");
    if (rule === null) return response;
    const text = await relayAnswer(response, rule);
    if (rule === "page-token" && !fresh) return once(target, init, true);
    throw new RelayRefused(response.status, rule, refusalMessage(text, rule));
  };
  return async (url, init) => {
    let target = url;
    let request = init;
    for (let hop = 0; ; hop++) {
      const response = await once(target, request, false);
      const location = response.headers.get("Relay-Location");
      if (location === null || !REDIRECTS.has(response.status)) return withLocation(response);
      if (request.redirect === "manual") return withLocation(response);
      if (hop >= MAX_REDIRECTS)
        throw new RelayRefused(
          508,
          "redirects",
          `More than ${MAX_REDIRECTS} redirects from ${url}.`,
        );
      await response.body?.cancel();
      const method = (request.method ?? "GET").toUpperCase();
      const keepsMethod = response.status === 307 || response.status === 308;
      request =
        keepsMethod || method === "GET" ? request : { ...request, method: "GET", body: null };
      // As a browser does: credentials never follow a redirect to another origin.
      if (new URL(location).origin !== new URL(target).origin) {
        const headers = new Headers(request.headers);
        headers.delete("Authorization");
        request = { ...request, headers };
      }
      target = location;
    }
  };
}

/**
 * The headers of the page's request to the relay for one request to `target`: the request's own
 * headers, the target, method and token, and the names of its custom headers.
 */
export function relayHeaders(target: string, init: RequestInit, token: string): Headers {
  const headers = new Headers(init.headers);
  const custom = [...headers.keys()].filter(
    (name) => !MCP_HEADERS.has(name) && !name.startsWith("mcp-"),
  );
  headers.set("Relay-Target", target);
  headers.set("Relay-Method", (init.method ?? "GET").toUpperCase());
  headers.set("Relay-Token", token);
  if (custom.length > 0) headers.set("Relay-Headers", custom.join(", "));
  return headers;
}

/** The target's response with `Relay-Location` back as `Location`. */
function withLocation(response: Response): Response {
  const location = response.headers.get("Relay-Location");
  if (location === null) return response;
  const headers = new Headers(response.headers);
  headers.delete("Relay-Location");
  headers.set("Location", location);
  return new Response(response.body, { status: response.status, headers });
}

/**
 * The relay's own answer as text, read up to `MAX_RELAY_ANSWER_BYTES`: an answer past that is
 * not the relay's (or something between mangled it), so it is refused unread.
 */
async function relayAnswer(response: Response, rule: string): Promise<string> {
  try {
    return await readTextWithin(response, MAX_RELAY_ANSWER_BYTES);
  } catch (error) {
    if (!(error instanceof OversizedBodyError)) throw error;
    throw new RelayRefused(
      502,
      rule,
      `The relay's answer is larger than ${MAX_RELAY_ANSWER_BYTES} bytes (64 KiB), far more than a refusal or a token takes; the rest was not read.`,
    );
  }
}

function refusalMessage(text: string, rule: string): string {
  try {
    const body: unknown = JSON.parse(text);
    const message =
      typeof body === "object" && body !== null
        ? Reflect.get(Object(Reflect.get(body, "error")), "message")
        : undefined;
    if (typeof message === "string") return message;
  } catch {
    // Not the relay's JSON: fall through to the rule's name.
  }
  return `The relay refused the request (${rule}).`;
}

/**
 * The page's token source: asks `POST /relay/token` once and keeps the answer, again when the
 * relay refused it. `authorization` is this Worker's credential, when it has any configured.
 */
export function pageTokens(
  tokenUrl: string,
  authorization: () => string | undefined,
  send: FetchLike = (url, init) => fetch(url, init),
): (fresh: boolean) => Promise<string> {
  let current: Promise<string> | undefined;
  return (fresh) => {
    if (!current || fresh) {
      const credential = authorization();
      current = send(tokenUrl, {
        method: "POST",
        headers: credential ? { Authorization: credential } : {},
      }).then(async (response) => {
        const rule = response.headers.get("Relay-Error");
        const text = await relayAnswer(response, rule ?? "page-token");
        if (rule !== null)
          throw new RelayRefused(response.status, rule, refusalMessage(text, rule));
        const token: unknown = Reflect.get(Object(JSON.parse(text)), "token");
        if (typeof token !== "string") throw new RelayRefused(502, "page-token", "No relay token.");
        return token;
      });
      current.catch(() => (current = undefined));
    }
    return current;
  };
}
