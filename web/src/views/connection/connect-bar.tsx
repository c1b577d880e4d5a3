import { connectTo, currentDevToken, disconnect, useDevToken } from "../../state/connection.ts";
import { originOf } from "../../state/credentials.ts";
import { openHeaders } from "../../state/headers.ts";
import { HeadersPanel } from "./headers-panel.tsx";
import {
  connecting,
  devTokens,
  endpoints,
  eraChoice,
  headerRows,
  routeChoice,
  headersOpen,
  paletteOpen,
  session,
  targetUrl,
  theme,
  type EraChoice,
  type RouteChoice,
} from "../../state/store.ts";

// Short labels: the bar gives the URL the room; the select's title says what each means.
const ERAS: [EraChoice, string][] = [
  ["auto", "Auto era"],
  ["modern", "2026-07-28"],
  ["legacy", "2025 era"],
];

// How the page reaches a server on another origin; this Worker's own endpoints are always direct.
const ROUTES: [RouteChoice, string][] = [
  ["auto", "Auto route"],
  ["direct", "Direct"],
  ["relay", "Via relay"],
];

/** Where to connect (this Worker's endpoints or any URL), in which era, with which headers. */
export function ConnectBar() {
  const live = session.value;
  // This Worker's own endpoints are always reached directly and may use its dev tokens; another
  // origin has no dev tokens and a route to choose. The bar shows only the picker that acts.
  const here = originOf(targetUrl.value.trim()) === location.origin;
  const choose = (url: string) => {
    targetUrl.value = url;
    void connectTo(url);
  };
  return (
    <header class="topbar">
      <div class="brand">
        <span class="logo" aria-hidden="true">
          ◆
        </span>
        <h1 aria-label="edgemcp playground">
          edgemcp <span class="brand-word">playground</span>
        </h1>
      </div>
      <form
        class="connect"
        aria-label="Connection"
        onSubmit={(e) => {
          e.preventDefault();
          void connectTo();
        }}
      >
        <label class="sr-only" for="endpoint-pick">
          This Worker's servers
        </label>
        <select
          id="endpoint-pick"
          onChange={(e) =>
            e.currentTarget.value && choose(`${location.origin}${e.currentTarget.value}`)
          }
          title="Servers this Worker serves"
        >
          <option value="">Servers here…</option>
          {endpoints.value.map((ep) => (
            <option
              key={ep.path}
              value={ep.path}
              selected={targetUrl.value === `${location.origin}${ep.path}`}
            >
              {ep.path} — {ep.title ?? ep.name}
            </option>
          ))}
        </select>
        <label class="sr-only" for="endpoint-url">
          MCP endpoint URL
        </label>
        <input
          id="endpoint-url"
          class="url"
          type="url"
          placeholder="https://example.com/mcp"
          value={targetUrl.value}
          onInput={(e) => (targetUrl.value = e.currentTarget.value)}
        />
        <label class="sr-only" for="era">
          Protocol era
        </label>
        <select
          id="era"
          title="Protocol era. Auto: ask for 2026-07-28, fall back to the 2025 initialize handshake. 2026-07-28: that era only. 2025 era: initialize (2025-11-25, 2025-06-18 or 2025-03-26)."
          value={eraChoice.value}
          onChange={(e) =>
            (eraChoice.value =
              ERAS.find(([value]) => value === e.currentTarget.value)?.[0] ?? "auto")
          }
        >
          {ERAS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        {here ? null : (
          <>
            <label class="sr-only" for="route">
              Connection route
            </label>
            <select
              id="route"
              title="How to reach a server on another origin. Auto: directly, then through this Worker's relay when CORS or the server's Origin check refuses this page. Direct: from the browser only. Via relay: through this Worker's relay (POST /relay)."
              value={routeChoice.value}
              onChange={(e) =>
                (routeChoice.value =
                  ROUTES.find(([value]) => value === e.currentTarget.value)?.[0] ?? "auto")
              }
            >
              {ROUTES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </>
        )}
        {devTokens.value.length && here ? (
          <>
            <label class="sr-only" for="dev-token">
              Call as (development tokens)
            </label>
            <select
              id="dev-token"
              title="This local Worker's example tokens (.dev.vars.example)"
              value={currentDevToken() ?? ""}
              onChange={(e) => {
                useDevToken(e.currentTarget.value || undefined);
                if (live) void connectTo();
              }}
            >
              <option value="">Anonymous</option>
              {devTokens.value.map((t) => (
                <option key={t.token} value={t.token}>
                  As {t.subject}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <button
          type="button"
          aria-expanded={headersOpen.value}
          onClick={() => (headersOpen.value ? (headersOpen.value = false) : openHeaders())}
        >
          Headers{headerRows.value.length ? ` (${headerRows.value.length})` : ""}
        </button>
        <button type="submit" class="primary" disabled={connecting.value}>
          {connecting.value ? "Connecting…" : live ? "Reconnect" : "Connect"}
        </button>
        {live ? (
          <button type="button" onClick={() => void disconnect()}>
            Disconnect
          </button>
        ) : null}
      </form>
      <div class="top-tools">
        <button
          type="button"
          class="icon-button"
          aria-label="Ctrl+K command palette"
          title="Command palette"
          onClick={() => (paletteOpen.value = true)}
        >
          Ctrl+K
        </button>
        <button
          type="button"
          class="icon-button"
          aria-label={`Switch to ${theme.value === "dark" ? "light" : "dark"} theme`}
          onClick={() => (theme.value = theme.value === "dark" ? "light" : "dark")}
        >
          {theme.value === "dark" ? "☀" : "☾"}
        </button>
      </div>
      {session.value?.route === "relay" ? (
        <p class="route-note small" role="status">
          {session.value.routeNote ??
            "Connected through this Worker's relay: the page sends each request to POST /relay, which forwards it to the server."}
        </p>
      ) : null}
      {headersOpen.value ? <HeadersPanel /> : null}
    </header>
  );
}
