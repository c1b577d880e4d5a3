import {
  connect,
  McpError,
  TASKS_EXTENSION,
  type ClientOptions,
  type FetchLike,
  type McpClient,
} from "../../../shared/client/index.ts";
import { RelayRefused } from "../../../shared/relay.ts";
import { inputHandlers } from "./inputs.ts";
import { relayedFetch } from "./relay.ts";
import { routeChoice } from "./store.ts";
import { recordingFetch } from "./recording-fetch.ts";

/** Auto tried direct, then the relay, and both failed: each failure, for the doctor. */
export class RouteError extends Error {
  constructor(
    readonly direct: unknown,
    readonly relayed: unknown,
  ) {
    super(`Direct: ${String(direct)}; through the relay: ${String(relayed)}`);
  }
}

/** A client connected by the route the person chose, and how it went. */
export type Routed = { client: McpClient; route: "direct" | "relay"; routeNote?: string };

type Setup = Pick<ClientOptions, "onNotification" | "onBackgroundState"> & {
  handshake: "probe" | "initialize";
  headers: Record<string, string>;
  /** Adds a signed-in server's token to each request (and signs in again when it asks). */
  wrap?: ((inner: FetchLike) => FetchLike) | undefined;
};

function open(url: string, fetch: FetchLike, { handshake, headers, wrap, ...session }: Setup) {
  return connect(url, {
    ...session,
    fetch: wrap ? wrap(fetch) : fetch,
    headers,
    handlers: inputHandlers,
    capabilities: {
      elicitation: { form: {}, url: {} },
      sampling: {},
      roots: {},
      extensions: { [TASKS_EXTENSION]: {} },
    },
    clientInfo: { name: "edgemcp-playground", version: "0.1.0", title: "edgemcp playground" },
    handshake,
    signal: AbortSignal.timeout(30_000),
  });
}

/**
 * Whether a direct attempt failed in a way the relay gets around: no readable answer from
 * another origin (CORS), or a 403 that names the page's origin (the server's Origin check;
 * the relay sends none).
 */
function relayWouldHelp(url: string, error: unknown): boolean {
  if (new URL(url).origin === location.origin || !(error instanceof McpError)) return false;
  if (error.kind === "network") return true;
  return error.status === 403 && /origin/i.test(error.message);
}

/**
 * Connects directly, through the relay, or (Auto) directly and then through the relay when
 * CORS or the server's Origin check refused the page, saying so. This Worker's own endpoints
 * are always reached directly.
 */
export async function routedClient(url: string, setup: Setup): Promise<Routed> {
  const choice = new URL(url).origin === location.origin ? "direct" : routeChoice.value;
  if (choice === "relay") return { client: await open(url, relayedFetch(), setup), route: "relay" };
  try {
    return { client: await open(url, recordingFetch(), setup), route: "direct" };
  } catch (direct) {
    if (choice !== "auto" || !relayWouldHelp(url, direct)) throw direct;
    try {
      const client = await open(url, relayedFetch(), setup);
      const why =
        direct instanceof McpError && direct.status === 403
          ? "the server refused this page's Origin (403)"
          : "the server does not allow this page with CORS";
      return {
        client,
        route: "relay",
        routeNote: `Connected through this Worker's relay: ${why}, so Auto tried the relay after the direct attempt failed.`,
      };
    } catch (relayed) {
      throw new RouteError(
        direct,
        relayed instanceof McpError && relayed.cause instanceof RelayRefused
          ? relayed.cause
          : relayed,
      );
    }
  }
}
