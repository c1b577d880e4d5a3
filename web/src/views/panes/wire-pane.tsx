import { useState } from "preact/hooks";
import { Header } from "../../../../shared/protocol/headers.ts";
import { isSecretHeader } from "../../../../shared/secret-headers.ts";
import { maskValue } from "../../lib/secrets.ts";
import { findingsOf, type Exchange } from "../../lib/exchange.ts";
import { clearWire, exchanges } from "../../state/wire.ts";
import { copying } from "../../state/copy.ts";
import { JsonTree } from "../widgets/json-tree.tsx";

const ROUTING = [Header.protocolVersion, Header.method, Header.name, Header.sessionId].map((h) =>
  h.toLowerCase(),
);
const isRouting = (name: string) =>
  ROUTING.includes(name.toLowerCase()) || name.toLowerCase().startsWith("mcp-param-");

function Headers({ rows, reveal }: { rows: [string, string][]; reveal: boolean }) {
  return (
    <table class="headers-table">
      <tbody>
        {rows.map(([name, value]) => (
          <tr key={name} class={isRouting(name) ? "routing" : ""}>
            <th scope="row">{name}</th>
            <td>{isSecretHeader(name) && !reveal ? maskValue(value) : value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Time to first byte, then each event, as bars on one axis; gaps show where the server was quiet. */
function Waterfall({ exchange }: { exchange: Exchange }) {
  const total = Math.max(exchange.end ?? exchange.frames.at(-1)?.at ?? exchange.ttfb ?? 1, 1);
  const pct = (ms: number) => `${Math.min(100, (ms / total) * 100).toFixed(2)}%`;
  return (
    <div class="waterfall" aria-label="Timing">
      <div class="wf-track">
        {exchange.ttfb !== undefined ? (
          <div
            class="wf-wait"
            style={{ width: pct(exchange.ttfb) }}
            title={`waiting ${exchange.ttfb.toFixed(0)} ms`}
          />
        ) : null}
        {exchange.frames.map((f, i) => (
          <div
            key={i}
            class="wf-event"
            style={{ left: pct(f.at) }}
            title={`event ${i + 1} at ${f.at.toFixed(0)} ms`}
          />
        ))}
      </div>
      <div class="small muted">
        first byte {exchange.ttfb?.toFixed(0) ?? "—"} ms · {exchange.frames.length} message
        {exchange.frames.length === 1 ? "" : "s"} · {exchange.bytes} bytes ·{" "}
        {exchange.end === undefined ? "open" : `${exchange.end.toFixed(0)} ms`}
        {exchange.frames.length > 1
          ? ` · longest gap ${Math.max(...exchange.frames.map((f, i) => f.at - (i === 0 ? (exchange.ttfb ?? 0) : exchange.frames[i - 1]!.at))).toFixed(0)} ms`
          : ""}
      </div>
    </div>
  );
}

function ExchangeDetail({ exchange }: { exchange: Exchange }) {
  const [reveal, setReveal] = useState(false);
  let body: unknown;
  try {
    body = JSON.parse(exchange.requestBody);
  } catch {
    body = exchange.requestBody;
  }
  return (
    <div class="exchange-detail">
      <div class="button-row">
        <button
          type="button"
          onClick={() =>
            (copying.value = {
              url: exchange.url,
              method: exchange.httpMethod,
              headers: exchange.requestHeaders,
              body: exchange.requestBody,
            })
          }
        >
          Copy as curl / fetch
        </button>
        <label class="checkbox-line small">
          <input
            type="checkbox"
            checked={reveal}
            onChange={(e) => setReveal(e.currentTarget.checked)}
          />{" "}
          show secrets
        </label>
      </div>
      <Waterfall exchange={exchange} />
      {exchange.findings.length > 0 ? <Findings list={exchange.findings} /> : null}
      {exchange.relay ? (
        <>
          <h4>
            Page → relay · POST <span class="break">{exchange.relay.url}</span>
          </h4>
          <Headers rows={exchange.relay.requestHeaders} reveal={false} />
          <p class="muted small">
            The relay sent the request below to the server (only the headers listed there) and
            passed back the status, the headers a client reads, and the body as it streamed.
          </p>
        </>
      ) : null}
      <h4>
        {exchange.relay ? "Relay → server" : "Request"} · {exchange.httpMethod}{" "}
        <span class="break">{exchange.url}</span>
      </h4>
      {exchange.resumes !== undefined ? (
        <p class="small muted">
          Resumes the stream of exchange #{exchange.resumes} after the server dropped it.
        </p>
      ) : null}
      <Headers rows={exchange.requestHeaders} reveal={reveal} />
      {exchange.requestBody ? <JsonTree value={body} /> : null}
      <h4>
        Response · {exchange.status ?? "no answer"} {exchange.contentType ?? ""}
      </h4>
      {exchange.error ? <p class="banner warn small">{exchange.error}</p> : null}
      {exchange.responseHeaders ? (
        <Headers rows={exchange.responseHeaders} reveal={reveal} />
      ) : null}
      {exchange.bodyText ? <pre class="plain">{exchange.bodyText.slice(0, 4000)}</pre> : null}
      <ol class="frames">
        {exchange.frames.map((f, i) => (
          <li key={i} class={f.findings.some((x) => x.level === "error") ? "frame bad" : "frame"}>
            <span class="muted small">+{f.at.toFixed(0)} ms</span>
            {f.note !== undefined ? (
              <span class="muted small"> {f.note}</span>
            ) : f.findings.length > 0 ? (
              <Findings list={f.findings} />
            ) : (
              <span class="ok-text small"> ✓ valid</span>
            )}
            {f.message === undefined ? (
              f.data === "" ? null : (
                <pre class="plain">{f.data}</pre>
              )
            ) : (
              <JsonTree value={f.message} />
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}

function Findings({ list }: { list: { level: string; rule: string; message: string }[] }) {
  return (
    <ul class="findings">
      {list.map((f, i) => (
        <li key={i} class={f.level}>
          <strong>{f.level === "error" ? "✗ violation" : "! warning"}</strong> <code>{f.rule}</code>{" "}
          {f.message}
        </li>
      ))}
    </ul>
  );
}

/** Every HTTP exchange: routing headers highlighted, SSE events timed, messages checked. */
export function WirePane() {
  const [open, setOpen] = useState<number | undefined>();
  const list = [...exchanges.value].reverse();
  return (
    <div class="wire">
      <div class="pane-tools">
        <span class="muted small">{list.length} exchanges, newest first</span>
        <button type="button" class="small-button" onClick={clearWire}>
          Clear
        </button>
      </div>
      {list.length === 0 ? <p class="muted pad">Nothing sent yet.</p> : null}
      <ul class="exchanges">
        {list.map((e) => {
          const findings = findingsOf(e);
          const errors = findings.filter((f) => f.level === "error").length;
          return (
            <li key={e.id} class="exchange">
              <button
                type="button"
                class="exchange-row"
                aria-expanded={open === e.id}
                onClick={() => setOpen(open === e.id ? undefined : e.id)}
              >
                <span class={`status s${String(e.status ?? 0)[0]}`}>
                  {e.status ?? (e.error ? "✕" : "…")}
                </span>
                <span class="rpc">
                  {e.rpcMethod ?? (e.httpMethod === "POST" ? "response" : e.httpMethod)}
                </span>
                {e.subject ? <span class="subject">{e.subject}</span> : null}
                <span class="spacer" />
                {errors > 0 ? (
                  <span class="badge bad">{errors} ✗</span>
                ) : findings.length > 0 ? (
                  <span class="badge warn">{findings.length} !</span>
                ) : null}
                <span class="muted small">
                  {e.end !== undefined ? `${e.end.toFixed(0)} ms` : "open"}
                </span>
              </button>
              {open === e.id ? <ExchangeDetail exchange={e} /> : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
