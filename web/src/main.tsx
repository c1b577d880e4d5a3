import { render } from "preact";
import { connectTo, loadEndpoints, restoreConnection } from "./state/connection.ts";
import { PERMALINK_PREFIX } from "./lib/permalink.ts";
import { openPermalink } from "./state/permalink.ts";
import { restoreSignIns, returnFromSignIn } from "./state/sign-in-actions.ts";
import { connecting, session, targetUrl, theme } from "./state/store.ts";
import { App } from "./views/shell/app.tsx";

const stored = localStorage.getItem("edgemcp.theme");
theme.value =
  stored === "dark" || stored === "light"
    ? stored
    : matchMedia("(prefers-color-scheme: dark)").matches
      ? "dark"
      : "light";
// Applied as the signal changes, not after the next render: no frame shows the old colours.
theme.subscribe((value) => {
  document.documentElement.dataset.theme = value;
  localStorage.setItem("edgemcp.theme", value);
});

render(<App />, document.getElementById("app")!);

restoreConnection();
// A permalink opens its request; otherwise the page connects to the last endpoint (or the
// hub), so the catalog is there at once, unless the person has already connected elsewhere.
// A sign-in this tab remembers is taken back first, so that connection carries its token; one
// this tab went to the authorization page for (popups blocked) is finished, and connects itself.
void Promise.all([loadEndpoints(), restoreSignIns()]).then(async () => {
  if (await returnFromSignIn()) return;
  if (location.hash.startsWith(PERMALINK_PREFIX)) await openPermalink(location.hash);
  else if (targetUrl.value && !session.value && !connecting.value) await connectTo();
});
window.addEventListener("hashchange", () => {
  if (location.hash.startsWith(PERMALINK_PREFIX)) void openPermalink(location.hash);
});
