import { signal } from "@preact/signals";
import type { FetchLike } from "../../../shared/client/index.ts";
import type { FlowTrace } from "../lib/flow-trace.ts";

// What the page knows about sign-ins before the sign-in code loads: the rest of it (OAuth,
// the flow) is fetched from the Worker the first time a server asks for sign-in.

/** A server the page is signed in to: who issued the tokens, what they allow, until when. */
export type SignInStatus = {
  url: string;
  issuer: string;
  clientId?: string;
  /** The subject the token names, when it is a JWT that says. */
  subject?: string;
  scope?: string;
  expiresAt?: number;
  refreshable: boolean;
  /** Kept in this tab's session storage (the person ticked "remember"). */
  remembered: boolean;
};

/** A running or finished sign-in, as the flow view shows it. */
export type FlowRun = {
  trace: FlowTrace;
  state: "running" | "paused" | "browser" | "done" | "failed";
  /** Step by step: what the next click sends, and the click itself. */
  next?: { label: string; go(): void };
  /** The authorization page, when the browser blocked the popup: opened by a click instead. */
  openPage?: () => void;
  /** Stops waiting for the authorization page. */
  cancel?: () => void;
};

/** A server that answered 401 (connecting, or to a call): the page offers to sign in there. */
export const signInOffer = signal<string | undefined>(undefined);

/** Signed-in servers by URL. */
export const signIns = signal<Record<string, SignInStatus>>({});
export const flowRun = signal<FlowRun | undefined>(undefined);
/** Keep the tokens in this tab's session storage (never local storage) until it closes. */
export const rememberSignIn = signal(false);
/** A client id the person registered at the authorization server beforehand (optional). */
export const typedClientId = signal("");
/** Show secrets (tokens, codes) in the flow view and its copies. */
export const revealFlowSecrets = signal(false);

/** The fetch wrappers that add each signed-in server's token (set by the sign-in code). */
const wrappers = new Map<string, (inner: FetchLike) => FetchLike>();

export function setAuthWrapper(
  url: string,
  wrap: ((inner: FetchLike) => FetchLike) | undefined,
): void {
  if (wrap) wrappers.set(url, wrap);
  else wrappers.delete(url);
}

/** How the connection to `url` sends its requests when the page is signed in there. */
export function authWrapperFor(url: string): ((inner: FetchLike) => FetchLike) | undefined {
  return wrappers.get(url);
}

/** The session storage key of remembered sign-ins (tokens and clients, this tab only). */
export const REMEMBERED = "edgemcp.sign-in";

/**
 * The session storage key of a sign-in this tab left for (popups blocked): what finishing it
 * needs, for 10 minutes, until the page comes back from the authorization page.
 */
export const PENDING_SIGN_IN = "edgemcp.sign-in.pending";

/** Whether this tab went to an authorization page and may be coming back with its answer. */
export function leftForSignIn(): boolean {
  try {
    return sessionStorage.getItem(PENDING_SIGN_IN) !== null;
  } catch {
    return false;
  }
}

/** Whether this tab remembers a sign-in, so the sign-in code loads at start. */
export function remembersSignIn(): boolean {
  try {
    return sessionStorage.getItem(REMEMBERED) !== null;
  } catch {
    return false;
  }
}
