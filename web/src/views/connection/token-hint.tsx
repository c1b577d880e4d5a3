import type { Tool } from "../../../../shared/protocol/primitives.ts";
import type { Permalink } from "../../lib/permalink.ts";
import { isSecretHeader } from "../../../../shared/secret-headers.ts";
import { latestCall, runCall } from "../../state/calls.ts";
import { headerMap } from "../../state/connection.ts";
import { signIns } from "../../state/sign-in.ts";
import { devTokens, drafts, session } from "../../state/store.ts";
import { signIn } from "../../state/sign-in-actions.ts";
import { CallView } from "../call/call-view.tsx";
import { addBearer } from "../../state/headers.ts";

/**
 * Tells an anonymous caller, before they fill a form, that a tool not marked read-only may
 * need a token: servers commonly let anonymous callers only read.
 */
export function TokenHint({ tool }: { tool: Tool }) {
  const live = session.value;
  if (!live || tool.annotations?.readOnlyHint === true || !anonymous()) return null;
  const here = new URL(live.url).origin === location.origin && devTokens.value.length > 0;
  return (
    <p class="banner info small token-hint">
      You are calling anonymously, and this tool is not marked read-only: servers often let
      anonymous callers only read, so it may be refused without a token.{" "}
      <button type="button" class="link-button" onClick={addBearer}>
        Add a Bearer token
      </button>
      {here ? <> or pick an identity (“As …”) beside the URL.</> : "."}
    </p>
  );
}

/** Whether the connection sends no credentials. */
function anonymous(): boolean {
  const live = session.value;
  if (live && signIns.value[live.url]) return false;
  return !Object.keys(headerMap()).some(isSecretHeader);
}

/** Under an anonymous catalog: a server may list and allow more to a caller with a token. */
export function AnonymousNote() {
  const live = session.value;
  if (!live || !anonymous()) return null;
  return (
    <p class="muted small pad anonymous-note">
      You are anonymous here: servers often list and allow more to a caller with a token.{" "}
      <button type="button" class="link-button" onClick={() => void signIn(live.url)}>
        Sign in
      </button>{" "}
      or{" "}
      <button type="button" class="link-button" onClick={addBearer}>
        add a Bearer token
      </button>
    </p>
  );
}

/**
 * A link's item the catalog does not hold: a server that hides what anonymous callers may not
 * use lists it only to a caller with a token. The link's arguments wait for the reconnect.
 * Signed in, the tool can be called as the link says: a server that wants more scopes for it
 * answers 403 insufficient_scope, and the page signs in again for them (a step-up).
 */
export function MissingItem({ link }: { link: Permalink }) {
  const live = session.value;
  const signedIn = live !== undefined && signIns.value[live.url] !== undefined;
  const call = link.kind === "tool" ? latestCall("tool", link.name) : undefined;
  return (
    <>
      <section class="banner warn missing-item" role="status">
        <strong>
          {link.kind} {link.name}
        </strong>{" "}
        is not in this server's catalog for you.{" "}
        {signedIn && link.kind === "tool" ? (
          <>
            Your sign-in may not allow it: calling it lets the server say which scopes it needs, and
            the page then signs in again for them.{" "}
            <button
              type="button"
              class="link-button"
              onClick={() =>
                void runCall("tool", link.name, drafts.value[`tool:${link.name}`] ?? link.args)
              }
            >
              Call it with the link's arguments
            </button>
          </>
        ) : (
          <>
            {anonymous()
              ? "You are anonymous: it may be listed only to a caller with a token. "
              : "Your token may not be allowed to use it. "}
            <button type="button" class="link-button" onClick={addBearer}>
              Add a Bearer token
            </button>{" "}
            and reconnect: the form opens with the link's arguments.
          </>
        )}
      </section>
      {call ? <CallView call={call} /> : null}
    </>
  );
}
