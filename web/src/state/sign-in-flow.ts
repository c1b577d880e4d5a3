import { authFetch } from "../../../shared/client/auth/auth-fetch.ts";
import { AuthSession, type AuthOptions } from "../../../shared/client/auth/index.ts";
import { loadIssuer, loadServer } from "../../../shared/client/auth/store.ts";
import type { FetchLike } from "../../../shared/client/index.ts";
import { PLAYGROUND_CLIENT_PATH } from "../../../shared/playground-paths.ts";
import { FlowRecorder } from "./flow-recorder.ts";
import { flowFetch } from "./flow-fetch.ts";
import { challengeOf, NoChallenge } from "./sign-in-challenge.ts";
import { PageStore } from "./sign-in-store.ts";
import { callbackUrl, openBlankPopup, popupInteract, type Opened } from "./sign-in-popup.ts";
import { leaveForSignIn, restoreTripConnection, takeTrip } from "./sign-in-redirect.ts";
import { notify, targetUrl } from "./store.ts";
import {
  rememberSignIn,
  setAuthWrapper,
  signIns,
  typedClientId,
  type SignInStatus,
} from "./sign-in.ts";

// The sign-in code, loaded when a server first asks for it: one store for the page (clients
// per issuer, tokens per resource), one session and one trace per server.
const sessions = new Map<string, AuthSession>();
const store = new PageStore(() => {
  for (const url of sessions.keys()) void publishStatus(url);
});
const recorders = new Map<string, FlowRecorder>();
let opened: Opened = null;

function recorderFor(url: string): FlowRecorder {
  let recorder = recorders.get(url);
  if (!recorder) {
    recorder = new FlowRecorder(url);
    recorders.set(url, recorder);
  }
  return recorder;
}

function optionsFor(url: string, recorder: FlowRecorder): AuthOptions {
  const typed = typedClientId.value.trim();
  const interact = popupInteract(
    {
      blocked: (open) => recorder.set("browser", { openPage: open }),
      waiting: (cancel) => recorder.set("browser", { cancel }),
      leave: (request) => {
        recorder.set("browser", {});
        notify("Popups are blocked for this page: signing in in this tab instead.");
        return leaveForSignIn(request, store.remembering);
      },
    },
    () => {
      const popup = opened;
      opened = null;
      // A popup closed before it was used was closed by a blocker, not by the person.
      return popup !== null && popup !== "blocked" && popup.closed ? "blocked" : popup;
    },
  );
  return {
    redirectUri: callbackUrl(),
    interact: async (request) => {
      if (recorder.stepByStep)
        await recorder.pause(
          "Open the authorization page",
          () => (opened = openBlankPopup() ?? "blocked"),
        );
      return interact(request);
    },
    clientName: "edgemcp playground",
    applicationType: "web",
    ...(typed ? { client: { client_id: typed } } : {}),
    // Deployed on https, the page names itself with its own metadata document; on http (local
    // development) the authorization server cannot fetch one, so the page registers instead.
    ...(location.protocol === "https:"
      ? { clientMetadataUrl: `${location.origin}${PLAYGROUND_CLIENT_PATH}` }
      : {}),
    store,
    fetch: flowFetch(recorder.record, recorder.gate),
    onEvent: recorder.event,
  };
}

/** What the page shows about a signed-in server, read from the session and the store. */
async function publishStatus(url: string): Promise<void> {
  const session = sessions.get(url);
  const kept = await loadServer(store, url);
  if (!session || !kept) return;
  const record = await loadIssuer(store, kept.issuer);
  const tokens = record.tokens[kept.resource];
  if (!tokens) return;
  const subject = jwtSubject(tokens.access_token);
  const status: SignInStatus = {
    url,
    issuer: kept.issuer,
    ...(record.client ? { clientId: record.client.client_id } : {}),
    ...(subject ? { subject } : {}),
    ...(tokens.scope ? { scope: tokens.scope } : {}),
    ...(tokens.expires_at === undefined ? {} : { expiresAt: tokens.expires_at }),
    refreshable: tokens.refresh_token !== undefined,
    remembered: store.remembering,
  };
  signIns.value = { ...signIns.value, [url]: status };
}

/** The subject a JWT access token names (unverified: shown, never trusted). */
function jwtSubject(token: string): string | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  try {
    const claims: unknown = JSON.parse(atob(parts[1]!.replace(/-/g, "+").replace(/_/g, "/")));
    if (typeof claims !== "object" || claims === null) return undefined;
    const { name, email, sub } = claims as Record<string, unknown>;
    const who = [name, email, sub].find((v) => typeof v === "string");
    return typeof who === "string" ? who : undefined;
  } catch {
    return undefined;
  }
}

function activate(url: string, session: AuthSession): void {
  sessions.set(url, session);
  setAuthWrapper(url, (inner: FetchLike) => authFetch(session, inner));
}

/**
 * Signs in to `url`: the unauthenticated request, discovery, client identity, PKCE, the
 * authorization page (in `popup` when one was opened at the click, this tab when it was refused),
 * the callback and the token request. True when tokens were issued; the trace says why not.
 */
export async function runSignIn(url: string, stepByStep: boolean, popup: Opened): Promise<boolean> {
  opened = popup;
  const recorder = recorderFor(url);
  recorder.restart(stepByStep);
  store.setRemember(rememberSignIn.value);
  try {
    const challenge = await challengeOf(url, recorder);
    const session = new AuthSession(url, optionsFor(url, recorder));
    await session.unauthorized(challenge, undefined);
    activate(url, session);
    await publishStatus(url);
    recorder.set("running", {});
    return true;
  } catch (error) {
    if (!(error instanceof NoChallenge)) recorder.fail(error);
    else recorder.set("failed", {});
    return false;
  } finally {
    if (opened !== null && opened !== "blocked") opened.close();
    opened = null;
  }
}

/**
 * Finishes the sign-in this tab left for when popups were blocked, on its return from the
 * authorization page: the connection it had, the callback checked (state, iss) and the token
 * request. The server's URL when signed in; undefined when there was nothing to finish or it
 * failed (the flow view says why).
 */
export async function resumeSignIn(): Promise<string | undefined> {
  const trip = takeTrip();
  if (!trip) return undefined;
  if ("problem" in trip) {
    const recorder = recorderFor(trip.server ?? location.origin);
    recorder.restart(false);
    recorder.add({ name: "callback", status: "failed", summary: trip.problem });
    recorder.set("failed", {});
    if (trip.server) targetUrl.value = trip.server;
    return undefined;
  }
  const url = trip.pending.server;
  restoreTripConnection(trip.connection);
  store.setRemember(trip.remember);
  rememberSignIn.value = trip.remember;
  const recorder = recorderFor(url);
  recorder.restart(false);
  recorder.add({
    name: "authorization",
    status: "ok",
    rule: "OAuth 2.1 §4.1.1",
    summary:
      "Popups are blocked for this page, so this tab went to the authorization page itself and came back with its answer; the sign-in's state and PKCE verifier waited in this tab's session storage, now cleared.",
  });
  try {
    const session = new AuthSession(url, optionsFor(url, recorder));
    await session.resume(trip.pending, trip.returned);
    activate(url, session);
    await publishStatus(url);
    recorder.set("running", {});
    return url;
  } catch (error) {
    recorder.fail(error);
    return undefined;
  }
}

/** Adds the authenticated request's outcome (the page's reconnect) as the last step. */
export function finishSignIn(url: string, ok: boolean, detail: string): void {
  const recorder = recorderFor(url);
  recorder.add({
    name: "retry",
    status: ok ? "ok" : "failed",
    rule: "RFC 6750 §2.1",
    summary: detail,
  });
  recorder.set(ok ? "done" : "failed", {});
}

/** Forgets `url`'s tokens, revoking them first where the server offers revocation. */
export async function signOutOf(url: string): Promise<boolean> {
  const session = sessions.get(url);
  setAuthWrapper(url, undefined);
  sessions.delete(url);
  const { [url]: _gone, ...rest } = signIns.value;
  signIns.value = rest;
  if (!session) return false;
  const { revoked } = await session.signOut({ revoke: true });
  return revoked;
}

/** Starts or stops keeping the sign-ins in this tab's session storage. */
export async function rememberSignIns(on: boolean): Promise<void> {
  store.setRemember(on);
  for (const url of sessions.keys()) await publishStatus(url);
}

/** Takes back the sign-ins this tab remembers (session storage), before the page connects. */
export async function restoreSignIns(): Promise<void> {
  rememberSignIn.value = store.remembering;
  for (const url of store.servers()) {
    activate(url, new AuthSession(url, optionsFor(url, recorderFor(url))));
    await publishStatus(url);
  }
}
