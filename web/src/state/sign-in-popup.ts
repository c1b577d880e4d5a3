import type { AuthorizationRequest, Interact } from "../../../shared/client/auth/index.ts";
import { PLAYGROUND_CALLBACK_PATH } from "../../../shared/playground-paths.ts";

/** The callback page posts the URL it was opened at here (same origin only). */
const CHANNEL = "edgemcp-sign-in";
const WINDOW = "edgemcp-sign-in";
const FEATURES = "popup,width=560,height=720";
/** How long the page waits for the person at the authorization page. */
const WAIT_MS = 10 * 60_000;

/** The page the authorization server sends the browser back to (a static asset of the Worker). */
export const callbackUrl = (): string => `${location.origin}${PLAYGROUND_CALLBACK_PATH}`;

/** What the flow shows while the browser is at the authorization page. */
export type BrowserStep = {
  /** The popup was blocked: a click opens the page instead (a click is never blocked). */
  blocked(open: () => void): void;
  /** The page is open; `cancel` stops waiting for it. */
  waiting(cancel: () => void): void;
  /**
   * Popups are refused even at a click: this tab goes to the authorization page itself, false
   * when it cannot keep what the sign-in needs for the trip.
   */
  leave(request: AuthorizationRequest): boolean;
};

/** What the person's click opened for the authorization page: a popup, none tried, or refused. */
export type Opened = Window | null | "blocked";

/**
 * Opens the authorization page in a popup (the one opened at the person's click when given,
 * still blank) and resolves with the callback URL the callback page posts back, matched by
 * `state` so a stale or foreign callback is ignored. The popup is cut from this page (no
 * `opener`) before it leaves for the authorization server. Where a click's popup is refused,
 * this tab goes to the authorization page instead, and the sign-in finishes when it returns.
 */
export function popupInteract(step: BrowserStep, takeOpened: () => Opened): Interact {
  return (request: AuthorizationRequest) =>
    new Promise<URL>((resolve, reject) => {
      const channel = new BroadcastChannel(CHANNEL);
      const timer = setTimeout(
        () => finish(new Error("No answer from the authorization page within 10 minutes.")),
        WAIT_MS,
      );
      const finish = (outcome: URL | Error) => {
        clearTimeout(timer);
        channel.close();
        if (outcome instanceof URL) resolve(outcome);
        else reject(outcome);
      };
      channel.onmessage = (event: MessageEvent<unknown>) => {
        const data = event.data;
        if (typeof data !== "object" || data === null || !("url" in data)) return;
        if (typeof data.url !== "string") return;
        const back = new URL(data.url);
        if (back.searchParams.get("state") === request.state) finish(back);
      };
      const open = (target: Window | null): boolean => {
        if (!target) return false;
        target.opener = null;
        target.location.href = request.url.href;
        step.waiting(() => finish(new Error("The sign-in was cancelled before the callback.")));
        return true;
      };
      const leave = () => {
        if (!step.leave(request))
          finish(
            new Error(
              "Popups are blocked for this page, and this tab cannot keep the sign-in while it goes to the authorization page (its session storage is unavailable): allow popups for this page and sign in again.",
            ),
          );
      };
      const opened = takeOpened();
      if (opened === "blocked") return leave();
      if (open(opened) || open(window.open("", WINDOW, FEATURES))) return;
      // No click to open it in (a step-up during a call): the person's click opens it, or, if
      // even that is refused, takes this tab there.
      step.blocked(() => {
        if (!open(window.open("", WINDOW, FEATURES))) leave();
      });
    });
}

/** A blank popup opened during the person's click, for the authorization page to come. */
export function openBlankPopup(): Window | null {
  return window.open("", WINDOW, FEATURES);
}
