import {
  FLOW_STEPS,
  shownTrace,
  traceJson,
  traceText,
  type FlowExchange,
  type FlowStep,
} from "../../lib/flow-trace.ts";
import { signIn } from "../../state/sign-in-actions.ts";
import { flowRun, revealFlowSecrets } from "../../state/sign-in.ts";
import { session, targetUrl } from "../../state/store.ts";
import { copyText } from "../../state/copy.ts";

const STATES = {
  running: "Running…",
  paused: "Paused: press Next to send the next request.",
  browser: "Waiting for the authorization page.",
  done: "Signed in.",
  failed: "Stopped: see the failed step.",
} as const;

function Headers({ list }: { list: [string, string][] }) {
  if (list.length === 0) return null;
  return <pre class="flow-headers">{list.map(([n, v]) => `${n}: ${v}`).join("\n")}</pre>;
}

function Exchange({ x }: { x: FlowExchange }) {
  return (
    <details class="flow-exchange">
      <summary>
        <code>
          {x.method} {x.url}
        </code>{" "}
        → {x.error ? "no answer" : `HTTP ${x.status ?? "…"}`}
        {x.via === "relay" ? <span class="badge">through the relay</span> : null}
      </summary>
      <h5>Request</h5>
      <Headers list={x.requestHeaders} />
      {x.requestBody ? <pre>{x.requestBody}</pre> : null}
      <h5>Response</h5>
      {x.error ? <p>{x.error}</p> : <Headers list={x.responseHeaders} />}
      {x.responseBody ? <pre>{x.responseBody}</pre> : null}
    </details>
  );
}

function Step({ step, index }: { step: FlowStep; index: number }) {
  return (
    <li class="flow-step" data-step={step.name} data-status={step.status}>
      <h4>
        {index + 1}. {FLOW_STEPS[step.name]}{" "}
        <span class={`badge status-${step.status}`}>{step.status}</span>
      </h4>
      <p class="flow-summary">{step.summary}</p>
      {step.rule ? (
        <p class="small">
          Rule: <span class="flow-rule">{step.rule}</span>
        </p>
      ) : null}
      {step.fix ? (
        <p class="flow-fix">
          <strong>What the server's owner must change:</strong> {step.fix}
        </p>
      ) : null}
      {step.url ? <code class="break small">{step.url}</code> : null}
      {step.exchanges.map((x, i) => (
        <Exchange key={i} x={x} />
      ))}
    </li>
  );
}

/**
 * The sign-in flow: every step in order with its requests and the rule it checked, run all at
 * once or a request at a time, copied as text or JSON (secrets masked unless shown).
 */
export function FlowView() {
  const run = flowRun.value;
  const url = session.value?.url ?? targetUrl.value.trim();
  const reveal = revealFlowSecrets.value;
  const busy =
    run && (run.state === "running" || run.state === "paused" || run.state === "browser");
  return (
    <article class="detail flow-view" aria-labelledby="flow-title">
      <header class="item-header">
        <h2 id="flow-title">Sign-in flow</h2>
        <code class="item-id">{run?.trace.server ?? url}</code>
      </header>
      <p class="muted small">
        MCP authorization step by step: the 401, the resource's and the authorization server's
        metadata, the client's identity, PKCE, the authorization page, the callback, the token
        request and the authenticated retry.
      </p>
      <div class="button-row">
        <button
          type="button"
          class="primary"
          disabled={!!busy || !url}
          onClick={() => void signIn(url)}
        >
          Run all
        </button>
        <button type="button" disabled={!!busy || !url} onClick={() => void signIn(url, true)}>
          Step by step
        </button>
        {run?.next ? (
          <button type="button" class="primary flow-next" onClick={run.next.go}>
            Next: {run.next.label}
          </button>
        ) : null}
        {run?.openPage ? (
          <button type="button" class="primary" onClick={run.openPage}>
            Open the sign-in page
          </button>
        ) : null}
        {run?.cancel ? (
          <button type="button" onClick={run.cancel}>
            Cancel
          </button>
        ) : null}
      </div>
      {run ? (
        <>
          <p class="flow-state" role="status">
            {STATES[run.state]}
          </p>
          <ol class="flow-steps">
            {shownTrace(run.trace, reveal).steps.map((step, i) => (
              <Step key={i} step={step} index={i} />
            ))}
          </ol>
          <div class="button-row">
            <label class="check">
              <input
                type="checkbox"
                checked={reveal}
                onChange={(e) => (revealFlowSecrets.value = e.currentTarget.checked)}
              />{" "}
              Show secrets (tokens, codes)
            </label>
            <button
              type="button"
              onClick={() => void copyText(traceText(run.trace, reveal), "trace")}
            >
              Copy as text
            </button>
            <button
              type="button"
              onClick={() => void copyText(traceJson(run.trace, reveal), "trace as JSON")}
            >
              Copy as JSON
            </button>
          </div>
        </>
      ) : (
        <p class="muted">No sign-in yet: Run all, or go step by step, for the URL above.</p>
      )}
    </article>
  );
}
