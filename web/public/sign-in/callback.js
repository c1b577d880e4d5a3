/* global location, history, BroadcastChannel, URL, document, setTimeout, window, sessionStorage */
// The authorization server sent the browser here. When this tab itself left the playground for
// the authorization page (popups were blocked there), the answer goes back to the playground in
// this tab: it waits beside the sign-in's pending state in this tab's session storage, and the
// playground checks it, uses it and clears both. Otherwise the playground that asked (this
// origin's page, in another window or tab) gets this URL over a same-origin channel and checks
// it. Nothing here reads or keeps the code; the address bar forgets it at once.
const answer = location.href;
history.replaceState(null, "", location.pathname);
const PENDING = "edgemcp.sign-in.pending";
const status = document.getElementById("status");
const refused = new URL(answer).searchParams.get("error");

/** The sign-in this tab left for, when there is one. */
function pendingTrip() {
  try {
    const trip = JSON.parse(sessionStorage.getItem(PENDING) ?? "null");
    return trip !== null && typeof trip === "object" && !Array.isArray(trip) ? trip : undefined;
  } catch {
    return undefined;
  }
}

const trip = pendingTrip();
let back = "/";
if (trip) {
  trip.returned = answer;
  // Only a path on this origin: never somewhere the stored value could point elsewhere.
  if (typeof trip.returnTo === "string" && /^\/(?![/\\])/.test(trip.returnTo)) back = trip.returnTo;
  try {
    sessionStorage.setItem(PENDING, JSON.stringify(trip));
  } catch {
    // The playground finds the sign-in without its answer and says so.
  }
  status.textContent = "Taking the answer back to the playground in this tab…";
  location.replace(back);
} else {
  const channel = new BroadcastChannel("edgemcp-sign-in");
  channel.postMessage({ url: answer });
  channel.close();
  status.textContent = refused
    ? `The authorization server refused the sign-in (${refused}). The playground says more; you can close this window.`
    : "Done: the playground takes it from here. You can close this window.";
  setTimeout(() => window.close(), 300);
}
