import type { FetchLike } from "../options.ts";
import type { Interact } from "./authorize.ts";
import type { AuthStore, RegisteredClient } from "./store.ts";
import type { AuthObserver } from "./trace.ts";

/** How a client signs in to one MCP server. */
export type AuthOptions = {
  /** Where the authorization server sends the user back (the page's callback, a loopback URL). */
  redirectUri?: string;
  /**
   * Opens the authorization URL and resolves with the callback URL (see `Interact`). Without it
   * the session only uses and refreshes kept tokens, and a needed sign-in fails with `signInHint`.
   */
  interact?: Interact;
  /**
   * The scopes to ask for (space-separated) in place of those the challenge or the resource
   * metadata name; a step-up still adds those a 403 insufficient_scope asks for.
   */
  scope?: string;
  /** What to tell the user when a sign-in is needed but cannot happen here. */
  signInHint?: string;
  clientName?: string;
  /** `native` for the CLI and desktop hosts, `web` for pages (default `native`). */
  applicationType?: "native" | "web";
  /** A pre-registered client, used first (only with `issuer` when that is set). */
  client?: RegisteredClient & { issuer?: string };
  /** This client's Client ID Metadata Document URL, for servers that accept one. */
  clientMetadataUrl?: string;
  /** Where client registrations and tokens are kept (default: this session's memory). */
  store?: AuthStore;
  /** The fetch for the sign-in's own requests and the MCP requests (default: global). */
  fetch?: FetchLike;
  onEvent?: AuthObserver;
  /** Extra sign-ins one request may take for 403 insufficient_scope (default 2). */
  maxStepUps?: number;
  /** Allows plain http beyond loopback (tests, local development). */
  allowHttp?: boolean;
};
