import { useEffect, useState } from "preact/hooks";
import {
  CHECK_GROUPS,
  countsText,
  serverText,
  STATUS_WORDS,
  type CheckGroup,
  type CheckReport,
  type CheckResult,
} from "../../../../shared/check/report.ts";
import { checkCommand } from "../../lib/check-command.ts";
import { checkRun, checkServer } from "../../state/checks.ts";
import { headerMap } from "../../state/connection.ts";
import { session, targetUrl } from "../../state/store.ts";
import { seconds } from "../../lib/seconds.ts";
import { clock } from "../../state/clock.ts";
import { copyText } from "../../state/copy.ts";

const GROUP_NAMES: Record<CheckGroup, string> = {
  discover: "Discover (server/discover)",
  headers: "Headers against bodies, _meta and versions",
  lists: "Lists, cursors and cache hints",
  resources: "Resources",
  errors: "Unknown methods and names",
  legacy: "The 2025 handshake (initialize)",
  cors: "CORS for browser clients",
  messages: "Every message against the protocol's schemas",
};

function Check({ check }: { check: CheckResult }) {
  return (
    <li class={`check check-${check.status}`} data-check={check.id}>
      <span class={`badge check-status ${check.status}`}>{STATUS_WORDS[check.status]}</span>
      <div class="check-body">
        <span class="check-title">{check.title}</span>
        {check.detail ? <p class="check-detail small">{check.detail}</p> : null}
        {check.fix ? (
          <p class="check-fix small">
            <strong>What to fix:</strong> {check.fix}
          </p>
        ) : null}
        <code class="muted small">{check.id}</code>
      </div>
    </li>
  );
}

function Report({ report, problemsOnly }: { report: CheckReport; problemsOnly: boolean }) {
  const { fail } = report.counts;
  return (
    <>
      <p class={report.ok ? "banner info check-summary" : "banner error check-summary"}>
        <strong>
          {report.ok ? "No check failed." : `${fail} check${fail === 1 ? "" : "s"} failed.`}
        </strong>{" "}
        {countsText(report.counts)}
        <br />
        <span class="small">server: {serverText(report)}</span>
      </p>
      {CHECK_GROUPS.map((group) => {
        const checks = report.checks.filter(
          (c) => c.group === group && (!problemsOnly || c.status === "fail" || c.status === "warn"),
        );
        if (checks.length === 0) return null;
        return (
          <section key={group} class="check-group" aria-labelledby={`check-group-${group}`}>
            <h3 id={`check-group-${group}`}>{GROUP_NAMES[group]}</h3>
            {group === "cors" &&
            report.checks.some((c) => c.group === "cors" && c.status === "skip") ? (
              <p class="muted small">
                A browser sets its own Origin, so these run only from <code>edgemcp check</code> (
                <code>--origin</code>). This page reaching the server at all shows that its CORS
                setup admits {location.origin}.
              </p>
            ) : null}
            <ul class="checks">
              {checks.map((c) => (
                <Check key={c.id} check={c} />
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}

/**
 * "Check this server": the conformance checks `edgemcp check` runs (one implementation, in
 * shared/check), run from the page against the connected server, grouped, with what to fix.
 */
export function CheckView() {
  const [problemsOnly, setProblemsOnly] = useState(false);
  const url = session.value?.url ?? targetUrl.value.trim();
  const run = checkRun.value;
  const running = run !== undefined && run.finishedAt === undefined;
  const current = run?.url === url ? run : undefined;
  useEffect(() => {
    // Opening the view checks the server once; later runs are the user's.
    if (url && run?.url !== url && !running) void checkServer(url);
  }, [url]);
  if (running) void clock.value;
  return (
    <article class="detail check-view" aria-labelledby="check-title">
      <header class="item-header">
        <div class="item-title">
          <h2 id="check-title">Check this server</h2>
          <span class="badge kind">conformance</span>
        </div>
        <code class="item-id break">{url || "no server"}</code>
      </header>
      <p class="muted">
        The checks <code>edgemcp check</code> runs, from this page: server/discover, headers against
        bodies, _meta and version errors, every list with its cursors and cache hints, resource
        not-found, unknown names, the 2025 handshake, and every message against the protocol's
        schemas. Nothing is changed: no tool is called. The connection's headers are sent with every
        request.
      </p>
      <div class="action-bar">
        <button
          type="button"
          class="primary"
          disabled={!url || running}
          onClick={() => void checkServer(url)}
        >
          {running ? "Checking…" : current ? "Check again" : "Run the checks"}
        </button>
        <label class="inline-check">
          <input
            type="checkbox"
            checked={problemsOnly}
            onChange={(e) => setProblemsOnly(e.currentTarget.checked)}
          />{" "}
          Only failures and warnings
        </label>
        {current?.report ? (
          <button
            type="button"
            onClick={() =>
              void copyText(JSON.stringify(current.report, null, 2), "the report as JSON")
            }
          >
            Copy as JSON
          </button>
        ) : null}
        <button
          type="button"
          disabled={!url}
          onClick={() => void copyText(checkCommand(url, headerMap()), "the edgemcp check command")}
        >
          Copy as edgemcp check
        </button>
      </div>
      {running ? (
        <p class="muted" role="status">
          Checking {run.url}… {seconds(Date.now() - run.startedAt)}
        </p>
      ) : null}
      {current?.error ? (
        <p class="banner error" role="alert">
          The checks could not run: {current.error}
        </p>
      ) : null}
      {current?.report && !running ? (
        <div role="region" aria-label="Check report" aria-live="polite">
          <Report report={current.report} problemsOnly={problemsOnly} />
          <p class="muted small">
            Finished in {seconds((current.finishedAt ?? current.startedAt) - current.startedAt)}.
          </p>
        </div>
      ) : null}
    </article>
  );
}
