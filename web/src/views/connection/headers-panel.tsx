import { headerOrigin, persistHeaders } from "../../state/credentials.ts";
import { isSecretHeader } from "../../../../shared/secret-headers.ts";
import { addBearer } from "../../state/headers.ts";
import { headerRows, rememberHeaders, type HeaderRow } from "../../state/store.ts";

/**
 * Whether a row may be marked shareable: not a name that looks like a credential (those never
 * go into a link, marked or not, and their values are masked as they are typed).
 */
const markable = (row: HeaderRow) => row.name.trim() !== "" && !isSecretHeader(row.name);

export function HeadersPanel() {
  const rows = headerRows.value;
  const set = (i: number, change: Partial<HeaderRow>) => {
    headerRows.value = rows.map((r, j) => (j === i ? { ...r, ...change } : r));
    persistHeaders();
  };
  return (
    <section class="headers-panel" aria-labelledby="headers-title">
      <h2 id="headers-title">
        Headers sent to <span class="break">{headerOrigin.value || "the server"}</span>
      </h2>
      <p class="muted small">
        Each server has its own: these go only to this origin, and another starts without any. The
        protocol's own headers are added by the client. Tokens stay in this tab's memory unless you
        tick “remember”. A link to a request carries a header's value only when you tick “in links”;
        otherwise only its name, for whoever opens it to fill in.
      </p>
      {rows.map((row, i) => (
        <div class="header-row" key={i}>
          <label class="sr-only" for={`hname-${i}`}>
            Header name
          </label>
          <input
            id={`hname-${i}`}
            placeholder="Name"
            value={row.name}
            // A new name is a new header: whether its value may be shared is asked again.
            onInput={(e) => set(i, { name: e.currentTarget.value, shareable: false })}
          />
          <label class="sr-only" for={`hvalue-${i}`}>
            Header value
          </label>
          {isSecretHeader(row.name) ? (
            <input
              id={`hvalue-${i}`}
              placeholder="Value"
              type="password"
              autocomplete="off"
              value={row.value}
              onInput={(e) => set(i, { value: e.currentTarget.value })}
            />
          ) : (
            <input
              id={`hvalue-${i}`}
              placeholder="Value"
              value={row.value}
              onInput={(e) => set(i, { value: e.currentTarget.value })}
            />
          )}
          {markable(row) ? (
            <label class="checkbox-line small" title="Put this header's value in links to requests">
              <input
                type="checkbox"
                id={`hshare-${i}`}
                aria-label={`Put the value of ${row.name.trim()} in links`}
                checked={row.shareable === true}
                onChange={(e) => set(i, { shareable: e.currentTarget.checked })}
              />
              in links
            </label>
          ) : null}
          <button
            type="button"
            class="icon-button"
            aria-label={`Remove header ${row.name || i + 1}`}
            onClick={() => ((headerRows.value = rows.filter((_, j) => j !== i)), persistHeaders())}
          >
            ✕
          </button>
        </div>
      ))}
      <div class="button-row">
        <button type="button" onClick={addBearer}>
          + Bearer token
        </button>
        <button
          type="button"
          onClick={() => (headerRows.value = [...rows, { name: "", value: "" }])}
        >
          + Custom header
        </button>
      </div>
      <label class="checkbox-line">
        <input
          type="checkbox"
          checked={rememberHeaders.value}
          onChange={(e) => ((rememberHeaders.value = e.currentTarget.checked), persistHeaders())}
        />
        remember these headers in this browser (localStorage)
      </label>
      <p class="muted small">Changes apply when you connect again.</p>
    </section>
  );
}
