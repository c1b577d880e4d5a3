/* global location, history, BroadcastChannel, URL, document, setTimeout, window */
// The authorization server sent the browser here: the playground that asked (this origin's
// page, in another window or tab) gets this URL over a same-origin channel and checks it.
// Nothing here reads or keeps the code; the address bar forgets it at once.
const answer = location.href;
history.replaceState(null, "", location.pathname);
const channel = new BroadcastChannel("edgemcp-sign-in");
channel.postMessage({ url: answer });
channel.close();
const refused = new URL(answer).searchParams.get("error");
document.getElementById("status").textContent = refused
  ? `The authorization server refused the sign-in (${refused}). The playground says more; you can close this window.`
  : "Done: the playground takes it from here. You can close this window.";
setTimeout(() => window.close(), 300);
