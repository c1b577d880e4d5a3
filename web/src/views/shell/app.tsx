import { useEffect } from "preact/hooks";
import { runCall } from "../../state/calls.ts";
import {
  catalog,
  CHECK_KEY,
  connecting,
  narrowSidebarOpen,
  paletteOpen,
  selected,
  selectedKey,
  session,
  targetUrl,
  toast,
} from "../../state/store.ts";
import { CallView } from "../call/call-view.tsx";
import { ConnectBar } from "../connection/connect-bar.tsx";
import { CarryDialog } from "../connection/carry-dialog.tsx";
import { CopyDialog } from "../request/copy-dialog.tsx";
import { Detail } from "../request/detail.tsx";
import { DoctorCard } from "../connection/doctor-card.tsx";
import { Palette } from "./palette.tsx";
import { Panes } from "../panes/panes.tsx";
import { Sidebar } from "../catalog/sidebar.tsx";
import { calls } from "../../state/calls.ts";
import { LazyCheckView } from "../check/lazy-check.tsx";
import { Permalinked } from "./permalinked.tsx";
import { MissingItem } from "../connection/token-hint.tsx";
import { openedLink } from "../../state/permalink.ts";
import { FLOW_KEY } from "../../state/sign-in-actions.ts";
import { FlowView } from "../sign-in/flow-view.tsx";
import { sendSelected } from "../../state/request.ts";
import { ConnectSignInOffer, SignedInBar } from "../sign-in/sign-in-card.tsx";

function AdHocResource({ uri }: { uri: string }) {
  const call = calls.value.find((c) => c.kind === "resource" && c.name === uri);
  return (
    <article class="detail" aria-label={`resource ${uri}`}>
      <header class="item-header">
        <div class="item-title">
          <h2>Resource</h2>
          <span class="badge kind">resource</span>
        </div>
        <code class="item-id">{uri}</code>
      </header>
      <div class="action-bar">
        <button
          type="button"
          class="primary"
          onClick={() => void runCall("resource", uri, undefined)}
        >
          Read again
        </button>
      </div>
      {call ? <CallView call={call} /> : null}
    </article>
  );
}

function ReadByUri() {
  return (
    <form
      class="inline-form read-uri"
      onSubmit={(e) => {
        e.preventDefault();
        const field = e.currentTarget.elements.namedItem("uri");
        const uri = field instanceof HTMLInputElement ? field.value.trim() : "";
        if (!uri) return;
        selectedKey.value = `resource:${uri}`;
        void runCall("resource", uri, undefined);
      }}
    >
      <label for="read-uri">Read a resource by URI</label>
      <input id="read-uri" name="uri" placeholder="notes://note-1" disabled={!session.value} />
      <button type="submit" disabled={!session.value}>
        Read
      </button>
    </form>
  );
}

function Main() {
  const entry = selected.value;
  const key = selectedKey.value;
  const link = openedLink.value;
  const linked = typeof link === "object" && key === `${link.kind}:${link.name}` ? link : undefined;
  return (
    <main class="main" id="main" tabIndex={-1}>
      <SignedInBar />
      <ConnectSignInOffer />
      <DoctorCard />
      <Permalinked />
      {key === FLOW_KEY ? (
        <FlowView />
      ) : entry ? (
        <Detail entry={entry} />
      ) : key === CHECK_KEY && (session.value || targetUrl.value) ? (
        <LazyCheckView />
      ) : key?.startsWith("resource:") && session.value ? (
        <AdHocResource uri={key.slice("resource:".length)} />
      ) : linked && session.value && catalog.value ? (
        <MissingItem link={linked} />
      ) : session.value ? (
        <div class="welcome">
          <h2>
            {session.value.description.serverInfo?.title ??
              session.value.description.serverInfo?.name ??
              "Connected"}
          </h2>
          <p>
            Pick a tool, prompt or resource in the catalog (or press Ctrl+K) to see it, fill its
            form and send it. The Wire pane shows every exchange.
          </p>
          <ReadByUri />
          <p>
            <button type="button" onClick={() => (selectedKey.value = CHECK_KEY)}>
              Check this server
            </button>{" "}
            <span class="muted small">
              runs the conformance checks of <code>edgemcp check</code> from this page.
            </span>
          </p>
        </div>
      ) : !connecting.value ? (
        <div class="welcome">
          <h2>Explore and drive an MCP server from your browser</h2>
          <p>
            Pick one of this Worker's servers above, or type any MCP endpoint URL, and press
            Connect. Nothing goes through a backend: the page talks to the server directly.
          </p>
        </div>
      ) : (
        <p class="muted pad">Connecting…</p>
      )}
    </main>
  );
}

/** The page: connection bar, catalog, the selected item, the panes; keyboard shortcuts. */
export function App() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") {
        e.preventDefault();
        paletteOpen.value = !paletteOpen.value;
      } else if ((e.ctrlKey || e.metaKey) && e.key === "Enter" && selected.value) {
        e.preventDefault();
        // The same readiness the Send button shows (connected, valid arguments, parsed JSON).
        sendSelected();
      } else if (e.key === "Escape") paletteOpen.value = false;
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <>
      <a class="skip" href="#main">
        Skip to the main view
      </a>
      <ConnectBar />
      <button
        type="button"
        class="catalog-toggle"
        aria-expanded={narrowSidebarOpen.value}
        onClick={() => (narrowSidebarOpen.value = !narrowSidebarOpen.value)}
      >
        Catalog
      </button>
      <div class="layout">
        <Sidebar />
        <Main />
        <Panes />
      </div>
      <Palette />
      <CopyDialog />
      <CarryDialog />
      {toast.value ? (
        <div class="toast" role="status">
          {toast.value}
        </div>
      ) : null}
    </>
  );
}
