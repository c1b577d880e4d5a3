import { authFetch } from "../../../shared/client/auth/auth-fetch.ts";
import { bearerChallenge, type BearerChallenge } from "../../../shared/client/auth/challenge.ts";
import { AuthSession, type AuthOptions } from "../../../shared/client/auth/index.ts";
import { loadIssuer, loadServer } from "../../../shared/client/auth/store.ts";
import type { FetchLike } from "../../../shared/client/index.ts";
import { PLAYGROUND_CLIENT_PATH } from "../../../shared/playground-paths.ts";
import { FlowRecorder } from "./flow-recorder.ts";
import { flowFetch } from "./flow-fetch.ts";
import { PageStore } from "./sign-in-store.ts";
import { callbackUrl, openBlankPopup, popupInteract } from "./sign-in-popup.ts";
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
let opened: Window | null = null;

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
    },
    () => {
      const popup = opened;
      opened = null;
      return popup && !popup.closed ? popup : null;
    },
  );
  return {
    redirectUri: callbackUrl(),
    interact: async (request) => {
      if (recorder.stepByStep)
        await recorder.pause("Open the authorization page", () => (opened = openBlankPopup()));
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

/** The unauthenticated request a sign-in starts from, listed as the flow's first step. */
async function challengeOf(
  url: string,
  recorder: FlowRecorder,
): Promise<BearerChallenge | undefined> {
  const response = await flowFetch(recorder.record, recorder.gate)(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "edgemcp-playground", version: "0.1.0" },
      },
    }),
  });
  const challenge = await bearerChallenge(response);
  const status = response.status;
  if (status === 401 && challenge) {
    recorder.add({
      name: "challenge",
      status: "ok",
      rule: "RFC 9728 §5.1; RFC 6750 §3",
      summary: challenge.resourceMetadata
        ? `401 with a Bearer challenge naming resource metadata ${challenge.resourceMetadata}${challenge.scope ? ` and scope "${challenge.scope}"` : ""}.`
        : "401 with a Bearer challenge without resource_metadata: the metadata is looked for at the well-known URLs.",
    });
    return challenge;
  }
  if (status === 401) {
    recorder.add({
      name: "challenge",
      status: "failed",
      rule: "RFC 6750 §3; MCP authorization",
      summary:
        "The server answered 401 without a Bearer challenge in WWW-Authenticate, so it does not use MCP authorization and the page cannot sign in to it. Add its token as a header instead.",
      fix: 'The server\'s owner must answer 401 with WWW-Authenticate: Bearer resource_metadata="…" to let clients sign in.',
    });
    throw new Error("no challenge");
  }
  recorder.add({
    name: "challenge",
    status: "skipped",
    rule: "RFC 9728 §3",
    summary: `The server answered ${status} without a token: it lets anonymous callers in. Signing in follows its metadata at the well-known URLs, for the calls that need a token.`,
  });
  return undefined;
}

/**
 * Signs in to `url`: the unauthenticated request, discovery, client identity, PKCE, the
 * authorization page (in `popup` when one was opened at the click), the callback and the token
 * request. True when tokens were issued; the trace says why not otherwise.
 */
export async function runSignIn(
  url: string,
  stepByStep: boolean,
  popup: Window | null,
): Promise<boolean> {
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
    if (!(error instanceof Error && error.message === "no challenge")) recorder.fail(error);
    else recorder.set("failed", {});
    return false;
  } finally {
    opened?.close();
    opened = null;
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
