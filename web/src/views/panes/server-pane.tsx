import { CHECK_KEY, roots, selectedKey, session, wallet } from "../../state/store.ts";
import { JsonTree } from "../widgets/json-tree.tsx";
import { Markdown } from "../widgets/markdown.tsx";

/** Who the server is, what it offers, its instructions, the era in use; the roots and the wallet. */
export function ServerPane() {
  const live = session.value;
  const d = live?.description;
  return (
    <div class="pad">
      {d ? (
        <>
          <h3>{d.serverInfo?.title ?? d.serverInfo?.name ?? "Unnamed server"}</h3>
          <dl class="facts">
            <dt>Server</dt>
            <dd>
              {d.serverInfo ? `${d.serverInfo.name} ${d.serverInfo.version}` : "did not say"}
              {d.serverInfo?.description ? ` — ${d.serverInfo.description}` : ""}
            </dd>
            <dt>Era</dt>
            <dd>
              <span class={`badge era-${live.client.era}`}>{live.client.eraTraits.label}</span>{" "}
              protocol {d.protocolVersion}
              {live.client.sessionId ? (
                <span class="muted small"> · session {live.client.sessionId}</span>
              ) : null}
            </dd>
            <dt>Supported</dt>
            <dd>{d.supportedVersions.join(", ")}</dd>
            <dt>Endpoint</dt>
            <dd class="break">{live.url}</dd>
          </dl>
          <button type="button" onClick={() => (selectedKey.value = CHECK_KEY)}>
            Check this server
          </button>
          <h4>Capabilities</h4>
          <JsonTree value={d.capabilities} />
          <h4>Instructions</h4>
          {d.instructions ? <Markdown text={d.instructions} /> : <p class="muted small">None.</p>}
        </>
      ) : (
        <p class="muted">Not connected.</p>
      )}
      <h4>Roots offered to servers</h4>
      <p class="muted small">Answered automatically when a server asks for roots (roots/list).</p>
      <ul class="roots">
        {roots.value.map((r, i) => (
          <li key={i} class="header-row">
            <label class="sr-only" for={`root-${i}`}>
              Root URI
            </label>
            <input
              id={`root-${i}`}
              value={r.uri}
              onInput={(e) =>
                (roots.value = roots.value.map((x, j) =>
                  j === i ? { ...x, uri: e.currentTarget.value } : x,
                ))
              }
            />
            <button
              type="button"
              class="icon-button"
              aria-label={`Remove root ${r.uri}`}
              onClick={() => (roots.value = roots.value.filter((_, j) => j !== i))}
            >
              ✕
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        class="small-button"
        onClick={() => (roots.value = [...roots.value, { uri: "file:///" }])}
      >
        + Root
      </button>
      <h4>Handle wallet</h4>
      <p class="muted small">
        Handles and cursors tools returned; fields that take one offer them.
      </p>
      {wallet.value.length === 0 ? <p class="muted small">Empty.</p> : null}
      <ul class="wallet">
        {wallet.value.map((h) => (
          <li key={h.value}>
            <code>{h.key}</code> from {h.tool}:{" "}
            <code class="truncate">
              {h.value.slice(0, 40)}
              {h.value.length > 40 ? "…" : ""}
            </code>
          </li>
        ))}
      </ul>
    </div>
  );
}
