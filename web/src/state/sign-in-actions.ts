import { PERMALINK_PREFIX } from "../lib/permalink.ts";
import { connectTo } from "./connection.ts";
import { reopenRequest } from "./permalink.ts";
import type * as SignInFlow from "./sign-in-flow.ts";
import { openBlankPopup } from "./sign-in-popup.ts";
import { flowRun, leftForSignIn, rememberSignIn, remembersSignIn } from "./sign-in.ts";
import { diagnosis, notify, selectedKey, session, targetUrl } from "./store.ts";

/** The selection that shows the sign-in flow view. */
export const FLOW_KEY = "sign-in:flow";

// The OAuth code (oauth4webapi, discovery, the flow) loads on first use only.
let loading: Promise<typeof SignInFlow> | undefined;
export function signInCode(): Promise<typeof SignInFlow> {
  loading ??= import("./sign-in-flow.ts").catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * Signs in to `url` and connects with the tokens. All at once, the popup opens during this
 * click (a popup opened later, after discovery, would be blocked); step by step, each request
 * waits for the person's click in the flow view, which opens the popup in its turn.
 */
export async function signIn(url: string, stepByStep = false): Promise<boolean> {
  // A click's popup refused (null) means popups are blocked here: the sign-in goes in this tab.
  const popup = stepByStep ? null : (openBlankPopup() ?? "blocked");
  if (stepByStep) selectedKey.value = FLOW_KEY;
  let code: typeof SignInFlow;
  try {
    code = await signInCode();
  } catch (error) {
    if (popup !== "blocked") popup?.close();
    notify(`The sign-in code could not load (${String(error)}): reload the page.`);
    return false;
  }
  if (!(await code.runSignIn(url, stepByStep, popup))) {
    selectedKey.value = FLOW_KEY;
    return false;
  }
  return connectSignedIn(code, url);
}

/** Connects with the new tokens; the connection's outcome is the flow's last step. */
async function connectSignedIn(code: typeof SignInFlow, url: string): Promise<boolean> {
  diagnosis.value = undefined;
  const connected = await connectTo(url);
  const name = session.value?.description.serverInfo?.name;
  code.finishSignIn(
    url,
    connected,
    connected
      ? `Connected with the new token${name ? ` to ${name}` : ""}: the server accepted it.`
      : "The server did not accept the connection with the new token; the connection doctor says why.",
  );
  return connected;
}

/**
 * On load, after a sign-in this tab left for (popups blocked): finishes it with the answer it
 * came back with and connects as it was; a sign-in that cannot finish is explained in the flow
 * view. False when this tab left for none.
 */
export async function returnFromSignIn(): Promise<boolean> {
  if (!leftForSignIn()) return false;
  let code: typeof SignInFlow;
  try {
    code = await signInCode();
  } catch (error) {
    notify(`The sign-in code could not load (${String(error)}): reload the page.`);
    return false;
  }
  const url = await code.resumeSignIn();
  if (url !== undefined) {
    if (await connectSignedIn(code, url)) {
      notify("Signed in, in this tab: popups are blocked here.");
      // The tab left from a link's request (a step-up, say): it is on screen again to send.
      if (location.hash.startsWith(PERMALINK_PREFIX)) reopenRequest(location.hash, url);
    }
    return true;
  }
  notify("The sign-in did not finish: the sign-in flow says why.");
  if (targetUrl.value) await connectTo();
  selectedKey.value = FLOW_KEY;
  return true;
}

/** Signs out of `url` (revoking where offered) and reconnects without the tokens. */
export async function signOut(url: string): Promise<void> {
  const code = await signInCode();
  const revoked = await code.signOutOf(url);
  notify(
    revoked
      ? "Signed out: the tokens are forgotten and the authorization server revoked them."
      : "Signed out: the tokens are forgotten here (the server offers no revocation).",
  );
  if (flowRun.value?.trace.server === url && flowRun.value.state !== "done")
    flowRun.value = undefined;
  await connectTo(url);
}

/** Turns "remember in this tab" on or off, for the sign-ins already made too. */
export function setRemember(on: boolean): void {
  rememberSignIn.value = on;
  void signInCode().then((code) => code.rememberSignIns(on));
}

/** Takes back this tab's remembered sign-ins before the first connection (if it has any). */
export async function restoreSignIns(): Promise<void> {
  if (!remembersSignIn()) return;
  try {
    await (await signInCode()).restoreSignIns();
  } catch {
    // The code did not load: the page starts signed out.
  }
}
