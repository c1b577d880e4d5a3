import {
  readPendingSignIn,
  type AuthorizationRequest,
  type PendingSignIn,
} from "../../../shared/client/auth/index.ts";
import { isRecord } from "../lib/json.ts";
import { PERMALINK_PREFIX } from "../lib/permalink.ts";
import { isSecretHeader } from "../../../shared/secret-headers.ts";
import { headerOrigin, isDevTokenRow, originOf, switchHeaders } from "./credentials.ts";
import { PENDING_SIGN_IN } from "./sign-in.ts";
import {
  eraChoice,
  headerRows,
  routeChoice,
  targetUrl,
  type EraChoice,
  type HeaderRow,
  type RouteChoice,
} from "./store.ts";

// Where popups are blocked, this tab goes to the authorization page itself. What the sign-in
// needs on its return (the PKCE verifier, state, the authorization server's metadata, the
// client, the connection) waits in this tab's session storage under one key, for 10 minutes at
// most, and is removed as soon as the page reads it back. Never tokens, never in the URL.

/** How long a sign-in in this tab may take at the authorization page. */
const TRIP_MS = 10 * 60_000;

/** The connection the page had when it left, made again on its return. */
type Connection = {
  url: string;
  era: EraChoice;
  route: RouteChoice;
  headers: HeaderRow[];
  /** The person had chosen to call anonymously (no Authorization header). */
  anonymous: boolean;
};

/** A sign-in this tab left for, as the page finds it back. */
export type Trip = {
  pending: PendingSignIn;
  /** The callback URL the authorization server sent this tab to. */
  returned: string;
  remember: boolean;
  connection: Connection;
};

/**
 * Keeps what the sign-in needs and sends this tab to the authorization page. False when this
 * tab's storage refuses it (the sign-in cannot survive the trip).
 */
export function leaveForSignIn(request: AuthorizationRequest, remember: boolean): boolean {
  const url = request.pending.server;
  const origin = originOf(url);
  const mine = origin !== undefined && headerOrigin.value === origin ? headerRows.value : [];
  const connection: Connection = {
    url,
    era: eraChoice.value,
    route: routeChoice.value,
    // Credentials stay behind: only headers whose names say nothing secret make the trip.
    headers: mine.filter((row) => !isSecretHeader(row.name)),
    anonymous: !mine.some((row) => row.name.trim().toLowerCase() === "authorization"),
  };
  try {
    sessionStorage.setItem(
      PENDING_SIGN_IN,
      JSON.stringify({
        expiresAt: Date.now() + TRIP_MS,
        // Back to the link the page was opened from, if any, so its request is there again.
        returnTo:
          location.pathname +
          location.search +
          (location.hash.startsWith(PERMALINK_PREFIX) ? location.hash : ""),
        pending: request.pending,
        remember,
        connection,
      }),
    );
  } catch {
    return false;
  }
  location.assign(request.url.href);
  return true;
}

/** Forgets a sign-in this tab left for (a new sign-in starts, or its return was read). */
export function forgetTrip(): void {
  try {
    sessionStorage.removeItem(PENDING_SIGN_IN);
  } catch {
    // Storage unavailable: nothing was kept there either.
  }
}

const ERAS: readonly string[] = ["auto", "modern", "legacy"];
const ROUTES: readonly string[] = ["direct", "relay", "auto"];

function readConnection(value: unknown, server: string): Connection | undefined {
  if (!isRecord(value) || value.url !== server) return undefined;
  const { era, route, headers } = value;
  if (typeof era !== "string" || !ERAS.includes(era)) return undefined;
  if (typeof route !== "string" || !ROUTES.includes(route)) return undefined;
  if (!Array.isArray(headers)) return undefined;
  const rows = headers.filter(
    (r): r is HeaderRow =>
      isRecord(r) &&
      typeof r.name === "string" &&
      typeof r.value === "string" &&
      !isSecretHeader(r.name),
  );
  return {
    url: server,
    era: era as EraChoice,
    route: route as RouteChoice,
    headers: rows,
    anonymous: value.anonymous === true,
  };
}

/**
 * Takes back, once, the sign-in this tab left for: the trip, or why it cannot finish (expired,
 * no answer, unreadable) with the server it was for when known. Undefined when there is none.
 */
export function takeTrip(): Trip | { problem: string; server?: string } | undefined {
  let kept: unknown;
  try {
    const text = sessionStorage.getItem(PENDING_SIGN_IN);
    if (text === null) return undefined;
    forgetTrip();
    kept = JSON.parse(text);
  } catch {
    forgetTrip();
    return { problem: "The sign-in this tab started could not be read back: sign in again." };
  }
  const record = isRecord(kept) ? kept : {};
  const pending = readPendingSignIn(record.pending);
  const server = pending?.server;
  const connection = pending && readConnection(record.connection, pending.server);
  if (!pending || !connection)
    return { problem: "The sign-in this tab started could not be read back: sign in again." };
  if (typeof record.expiresAt !== "number" || record.expiresAt < Date.now())
    return {
      problem:
        "The sign-in this tab started more than 10 minutes ago has expired, so its answer was not used: sign in again.",
      ...(server ? { server } : {}),
    };
  if (typeof record.returned !== "string")
    return {
      problem:
        "The sign-in this tab started did not come back from the authorization page with an answer: sign in again.",
      ...(server ? { server } : {}),
    };
  return { pending, returned: record.returned, remember: record.remember === true, connection };
}

/** Makes the connection the page had when it left the one on screen again. */
export function restoreTripConnection(connection: Connection): void {
  const { url, era, route, headers } = connection;
  targetUrl.value = url;
  eraChoice.value = era;
  routeChoice.value = route;
  const origin = originOf(url);
  if (!origin) return;
  switchHeaders(origin);
  // The page's load put this Worker's first development token back: anonymous stays anonymous.
  if (connection.anonymous) headerRows.value = headerRows.value.filter((r) => !isDevTokenRow(r));
  const names = new Set(headerRows.value.map((row) => row.name.toLowerCase()));
  const missing = headers.filter((row) => !names.has(row.name.toLowerCase()));
  if (missing.length > 0) headerRows.value = [...headerRows.value, ...missing];
}
