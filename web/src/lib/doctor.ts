import { relayVerdict, type Hop } from "../../../shared/check/hop.ts";
import { McpError } from "../../../shared/client/errors.ts";
import { errorText } from "../../../shared/error-text.ts";
import { RelayRefused } from "../../../shared/relay.ts";

/** What went wrong when connecting, as gathered after the failure. */
export type Facts = {
  url: string;
  /** The page's own origin, to tell same-origin endpoints from others. */
  pageOrigin: string;
  online: boolean;
  error: { kind: string; message: string; status?: number; code?: number; data?: unknown };
  /** The last HTTP answer, when there was one. */
  response?: { status: number; contentType: string; wwwAuthenticate?: string; bodyText?: string };
  /** For a cross-origin URL that failed without an answer: what the CORS probes saw. */
  cors?: CorsFacts;
  /** The user asked for 2026-07-28 and the server only speaks the 2025 handshake. */
  legacyOnly?: boolean;
  /** Every hop a browser client needs, as checked after a cross-origin failure (hops.ts). */
  hops?: Hop[];
  /** How the connection was routed: direct, through the relay, or Auto. */
  route?: "direct" | "relay" | "auto";
  /** Why the relay could not connect either (Auto, or the relay route), in its own words. */
  relayRefusal?: string;
  /** The server's refusal as it reached this Worker's relay (Auto's second attempt). */
  relayAnswer?: string;
  /**
   * A GET to the URL opened an HTTP+SSE stream (the 2024-11-05 transport) whose `endpoint`
   * event named this URL for the client's POSTs.
   */
  sseEndpoint?: string;
  /** The MCP endpoints this Worker serves (paths). */
  endpoints: readonly string[];
  /** The origin the credentials sent were entered for, when it is not the URL's own. */
  carriedFrom?: string;
};

/** What the CORS probes found: is the server there at all, and which headers it refuses. */
export type CorsFacts = {
  reachable: boolean;
  /** A request without extra headers was readable (the server sends Access-Control-Allow-Origin). */
  allowsOrigin: boolean;
  /** Request headers whose preflight failed. */
  refusedHeaders: string[];
};

export type DiagnosisKind =
  | "offline"
  | "unreachable"
  | "cors"
  | "not-found"
  | "auth"
  | "forbidden-origin"
  | "legacy-only"
  | "legacy-sse"
  | "not-mcp"
  | "version"
  | "server-error"
  | "other";

/** A failure explained: what happened, what to do, and endpoints worth trying. */
export type Diagnosis = {
  kind: DiagnosisKind;
  title: string;
  detail: string;
  actions: string[];
  suggestions: string[];
  /** The suggestions are guesses at a usual path, not endpoints known to answer. */
  guessed?: true;
  wwwAuthenticate?: string;
  /** The hops checked, each with its fix and whether the relay gets around it. */
  hops?: Hop[];
  /** Connecting through this Worker's relay would get around the failure. */
  offerRelay?: boolean;
};

/**
 * Endpoints to offer: on this Worker, the ones it serves; elsewhere the usual path, a guess
 * nobody tried.
 */
function suggestionsFor(facts: Facts): Pick<Diagnosis, "suggestions" | "guessed"> {
  let url: URL;
  try {
    url = new URL(facts.url);
  } catch {
    return { suggestions: [] };
  }
  if (url.origin !== facts.pageOrigin) {
    const guesses = [`${url.origin}/mcp`].filter((u) => u !== facts.url);
    return { suggestions: guesses, ...(guesses.length > 0 ? { guessed: true } : {}) };
  }
  return {
    suggestions: facts.endpoints
      .map((path) => `${url.origin}${path}`)
      .filter((u) => u !== facts.url),
  };
}

/**
 * For someone who cannot change the server: a terminal sends no Origin and knows no CORS, so
 * the command reaches any server the browser cannot.
 */
function terminalWay(url: string): string {
  return `Not your server? A terminal knows no CORS: npx edgemcp list ${url} (then npx edgemcp call ${url} <tool> --args '{...}') reaches it from your machine.`;
}

function corsDiagnosis(facts: Facts, cors: CorsFacts): Diagnosis {
  const origin = facts.pageOrigin;
  if (!cors.allowsOrigin)
    return {
      kind: "cors",
      title: "The server does not allow calls from this page (CORS)",
      detail: `The server answered, but without Access-Control-Allow-Origin for ${origin}, so the browser hid the answer.`,
      actions: [
        `Have the server send Access-Control-Allow-Origin: ${origin} (or list this origin in its allowed origins).`,
        "Answer the OPTIONS preflight with Access-Control-Allow-Headers: Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-* (and Mcp-Session-Id for 2025 servers).",
        "Expose MCP-Protocol-Version, WWW-Authenticate (and Mcp-Session-Id for 2025 servers) with Access-Control-Expose-Headers.",
        terminalWay(facts.url),
      ],
      suggestions: [],
    };
  return {
    kind: "cors",
    title: `The server's CORS preflight refuses ${cors.refusedHeaders.join(", ") || "a header MCP needs"}`,
    detail: `Requests from ${origin} are allowed, but the preflight (OPTIONS) does not allow the request header${cors.refusedHeaders.length === 1 ? "" : "s"} ${cors.refusedHeaders.join(", ")}.`,
    actions: [
      `Add ${cors.refusedHeaders.join(", ")} to Access-Control-Allow-Headers in the server's OPTIONS answer (Mcp-Param-* for tools with x-mcp-header arguments).`,
      "Expose MCP-Protocol-Version and WWW-Authenticate with Access-Control-Expose-Headers.",
      terminalWay(facts.url),
    ],
    suggestions: [],
  };
}

/**
 * Explains a failed connection so a person knows what to do next: what happened, the fix on the
 * server, every hop checked, and whether this Worker's relay gets around it (offered when it
 * does and was not tried; its refusal told when it was).
 */
export function diagnose(facts: Facts): Diagnosis {
  const found = explain(facts);
  const failed = facts.hops?.filter((hop) => hop.status === "fail") ?? [];
  const relayable =
    found.kind === "cors" ||
    found.kind === "forbidden-origin" ||
    (failed.length > 0 && failed.every((hop) => hop.relayHelps));
  // The relay is the page's own way around; the terminal (when offered) stays the last resort.
  const actions = [...found.actions];
  const terminal = actions.at(-1) === terminalWay(facts.url) ? actions.pop() : undefined;
  if (facts.relayRefusal !== undefined)
    actions.push(`This Worker's relay could not connect either: ${facts.relayRefusal}`);
  else if (facts.relayAnswer !== undefined)
    actions.push(`This Worker's relay reached the server: ${facts.relayAnswer}`);
  else if (relayable)
    actions.push(
      "Or connect through this Worker's relay, which gets around this (the server never sees this page's origin).",
    );
  if (terminal !== undefined) actions.push(terminal);
  return {
    ...found,
    actions,
    ...(facts.hops && facts.hops.length > 0 ? { hops: facts.hops } : {}),
    ...(relayable &&
    facts.relayRefusal === undefined &&
    facts.relayAnswer === undefined &&
    facts.route !== "relay"
      ? { offerRelay: true }
      : {}),
  };
}

/**
 * What the relay's attempt after a failed direct one tells: the relay's refusal, or no
 * connection at all ("could not connect either"), or the server's own answer through it (it
 * reached the server, which refused: a 401 asking to sign in, say).
 */
export function relayOutcome(relayed: unknown): Pick<Facts, "relayRefusal" | "relayAnswer"> {
  // The relay's own refusal first: the client's error carrying it has the relay's status.
  if (relayed instanceof Error && relayed.cause instanceof RelayRefused)
    return { relayRefusal: relayed.cause.message };
  if (relayed instanceof McpError && relayed.status !== undefined && relayed.kind !== "network")
    return {
      relayAnswer:
        relayed.status === 401
          ? `${errorText(relayed).replace(/\.$/, "")}. It asks who you are: sign in, or add a token.`
          : errorText(relayed),
    };
  return { relayRefusal: errorText(relayed) };
}

/** The verdict on one hop, as the doctor lists it. */
export function hopLine(hop: Hop): string {
  if (hop.status !== "fail") return `${hop.title}: ${hop.status} (${hop.seen})`;
  return `${hop.title}: ${hop.seen}. ${hop.fix} ${relayVerdict(hop)}`;
}

function explain(facts: Facts): Diagnosis {
  const base = { suggestions: [] as string[] };
  if (facts.legacyOnly)
    return {
      ...base,
      kind: "legacy-only",
      title: "This server only speaks the 2025 protocol (initialize)",
      detail:
        "It did not answer server/discover as a 2026-07-28 server, but accepted the 2025 initialize handshake.",
      actions: [
        "Choose era Auto or 2025 to use it; 2026 features (MRTR, listen streams, tasks) will not be available.",
      ],
    };
  const { error, response } = facts;
  if (error.kind === "network") {
    if (!facts.online)
      return {
        ...base,
        kind: "offline",
        title: "You are offline",
        detail: "The browser has no network connection.",
        actions: ["Reconnect to a network, then try again."],
      };
    if (facts.cors && facts.cors.reachable) return corsDiagnosis(facts, facts.cors);
    return {
      ...base,
      kind: "unreachable",
      title: "The server could not be reached",
      detail: `No HTTP answer came from ${facts.url}: the host may be down, the port or scheme wrong, or a certificate refused.`,
      actions: [
        "Check the URL (http or https, host and port).",
        "Check that the server is running and reachable from this browser.",
      ],
      ...suggestionsFor(facts),
    };
  }
  const status = response?.status ?? error.status;
  if (status === 401 || status === 403) {
    const originRefused = status === 403 && /origin/i.test(response?.bodyText ?? error.message);
    if (originRefused)
      return {
        ...base,
        kind: "forbidden-origin",
        title: "The server refuses this page's origin",
        detail: response?.bodyText?.trim() || error.message,
        actions: [
          `Allow ${facts.pageOrigin} on the server (for edgemcp: the ALLOWED_ORIGINS variable).`,
        ],
      };
    return {
      ...base,
      kind: "auth",
      title:
        status === 401
          ? "The server wants credentials (401)"
          : "The credentials were refused (403)",
      detail: response?.bodyText?.trim().slice(0, 300) || error.message,
      actions: [
        status === 401
          ? "Add an Authorization header (Headers → Bearer token) and connect again."
          : "Check the token's permissions, or use another token.",
      ],
      ...(response?.wwwAuthenticate ? { wwwAuthenticate: response.wwwAuthenticate } : {}),
    };
  }
  if (facts.sseEndpoint)
    return {
      ...base,
      kind: "legacy-sse",
      title: "This server speaks HTTP+SSE, the transport before Streamable HTTP",
      detail: `${facts.url} refused the POST (${status ?? "no status"}), but a GET opened an event stream whose endpoint event names ${facts.sseEndpoint} for the client's messages: the 2024-11-05 transport, which Streamable HTTP replaced in 2025-03-26.`,
      actions: [
        "This page speaks Streamable HTTP only: connect to the server's Streamable HTTP endpoint (often /mcp), or start the server with that transport.",
      ],
    };
  if (status === 404 || status === 405)
    return {
      kind: "not-found",
      title:
        status === 404
          ? "Nothing answers MCP at this path (404)"
          : "This URL does not accept MCP POSTs (405)",
      detail: `${facts.url} answered ${status}${response?.bodyText ? `: ${response.bodyText.trim().slice(0, 200)}` : "."}`,
      actions: ["Check the path: MCP servers usually live at /mcp or /mcp/<name>."],
      ...suggestionsFor(facts),
    };
  if (error.code === -32022)
    return {
      ...base,
      kind: "version",
      title: "No protocol version in common",
      detail: error.message,
      actions: ["Choose era Auto, or the era the server supports."],
    };
  if (status !== undefined && status >= 500 && facts.carriedFrom)
    return {
      ...base,
      kind: "server-error",
      title: `The server failed (${status}) on credentials meant for another server`,
      detail: `The request carried the credentials you entered for ${facts.carriedFrom}; this server may not know what to do with a token it did not issue. ${response?.bodyText?.trim().slice(0, 200) || error.message}`,
      actions: [
        "Open Headers, remove the credentials or replace them with this server's own, and connect again.",
      ],
    };
  if (status !== undefined && status >= 500)
    return {
      ...base,
      kind: "server-error",
      title: `The server failed (${status})`,
      detail: response?.bodyText?.trim().slice(0, 300) || error.message,
      actions: ["Try again; if it persists, check the server's logs."],
    };
  if (error.kind === "protocol" && response && !/json|event-stream/.test(response.contentType))
    return {
      kind: "not-mcp",
      title: "This URL is not an MCP endpoint",
      detail: `It answered with ${response.contentType || "no content type"} (HTTP ${response.status}), not JSON-RPC over JSON or SSE.`,
      actions: ["Point at the server's MCP endpoint, not its web page."],
      ...suggestionsFor(facts),
    };
  return {
    ...base,
    kind: "other",
    title: "Connecting failed",
    detail: error.message,
    actions: ["Open the Wire pane to see the exchange."],
  };
}
