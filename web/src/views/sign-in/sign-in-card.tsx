import { FLOW_KEY, setRemember, signIn, signOut } from "../../state/sign-in-actions.ts";
import {
  flowRun,
  rememberSignIn,
  signInOffer,
  signIns,
  typedClientId,
  type SignInStatus,
} from "../../state/sign-in.ts";
import { connecting, selectedKey, session } from "../../state/store.ts";

/** "Remember in this tab" and the optional pre-registered client id, before signing in. */
function SignInOptions() {
  return (
    <div class="sign-in-options">
      <label class="check">
        <input
          type="checkbox"
          checked={rememberSignIn.value}
          onChange={(e) => (rememberSignIn.value = e.currentTarget.checked)}
        />{" "}
        Remember in this tab (session storage, gone when the tab closes)
      </label>
      <details>
        <summary>Client ID</summary>
        <label for="sign-in-client-id">
          A client id registered at the authorization server (leave empty:{" "}
          {location.protocol === "https:"
            ? "the page names itself with its client metadata document, or registers"
            : "the page registers itself"}
          )
        </label>
        <input
          id="sign-in-client-id"
          value={typedClientId.value}
          onInput={(e) => (typedClientId.value = e.currentTarget.value)}
          autocomplete="off"
          spellcheck={false}
        />
      </details>
    </div>
  );
}

/** Offers to sign in where a server answered 401 (connecting, or to a call). */
export function SignInOffer({ url, why }: { url: string; why?: string }) {
  return (
    <section class="banner info sign-in-offer" aria-labelledby="sign-in-offer-title">
      <h2 id="sign-in-offer-title">Sign in to this server</h2>
      <p>
        {why ?? "The server answered 401: it wants a token."} If it uses MCP authorization (OAuth
        2.1), the page signs you in: the authorization page opens in a popup, and the tokens stay in
        this page's memory.
      </p>
      <SignInOptions />
      <div class="button-row">
        <button
          type="button"
          class="primary"
          disabled={connecting.value}
          onClick={() => void signIn(url)}
        >
          Sign in
        </button>
        <button type="button" onClick={() => void signIn(url, true)}>
          Sign in step by step
        </button>
        <button type="button" class="link-button" onClick={() => (selectedKey.value = FLOW_KEY)}>
          See the sign-in flow
        </button>
      </div>
    </section>
  );
}

/** The offer after a failed connection, above the doctor's verdict. */
export function ConnectSignInOffer() {
  const url = signInOffer.value;
  if (!url || session.value?.url === url || signIns.value[url]) return null;
  return <SignInOffer url={url} />;
}

function expiry(status: SignInStatus): string {
  if (status.expiresAt === undefined) return "no expiry given";
  const minutes = Math.round((status.expiresAt - Date.now()) / 60_000);
  const at = new Date(status.expiresAt).toLocaleTimeString();
  return minutes > 0 ? `expires at ${at} (in ${minutes} min)` : `expired at ${at}`;
}

/** Who the connection is signed in as, with what, until when; Sign out. */
export function SignedInBar() {
  const live = session.value;
  const status = live ? signIns.value[live.url] : undefined;
  if (!live || !status) return null;
  return (
    <section class="signed-in" aria-label="Signed in">
      <p>
        <strong>Signed in</strong>
        {status.subject ? <> as {status.subject}</> : null} at{" "}
        <code class="break">{status.issuer}</code>
        {status.clientId ? <span class="muted small"> · client {status.clientId}</span> : null}
      </p>
      <dl class="facts small">
        <dt>Scopes</dt>
        <dd class="sign-in-scopes">{status.scope ?? "none named"}</dd>
        <dt>Token</dt>
        <dd class="sign-in-expiry">
          {expiry(status)}
          {status.refreshable ? "; refreshed by itself when it lapses" : ""}
          {status.remembered ? "; remembered in this tab" : "; in this page's memory"}
        </dd>
      </dl>
      <div class="button-row">
        <label class="check">
          <input
            type="checkbox"
            checked={status.remembered}
            onChange={(e) => setRemember(e.currentTarget.checked)}
          />{" "}
          Remember in this tab
        </label>
        {flowRun.value?.openPage && flowRun.value.trace.server === live.url ? (
          <button type="button" class="primary" onClick={flowRun.value.openPage}>
            Open the sign-in page (the server asks for more)
          </button>
        ) : null}
        <button type="button" onClick={() => void signOut(live.url)}>
          Sign out
        </button>
        <button type="button" class="link-button" onClick={() => (selectedKey.value = FLOW_KEY)}>
          Sign-in flow
        </button>
      </div>
    </section>
  );
}
