import { useEffect, useRef } from "preact/hooks";
import type {
  CallToolResult,
  GetPromptResult,
  ReadResourceResult,
} from "../../../../shared/client/index.ts";
import { TERMINAL_TASK_STATUSES } from "../../../../shared/protocol/tasks.ts";
import { callState } from "../../lib/call-status.ts";
import { viewToolResult } from "../../lib/classify.ts";
import { isRecord } from "../../lib/json.ts";
import type { Schema } from "../../lib/schema/resolve.ts";
import { cancelCall, readLinked, type CallRecord } from "../../state/calls.ts";
import { patternRound } from "../../state/pattern-checks.ts";
import { pendingInputs, rootsAnswered } from "../../state/inputs.ts";
import { signIns } from "../../state/sign-in.ts";
import { pane, session } from "../../state/store.ts";
import { tasks } from "../../state/tasks.ts";
import { exchanges } from "../../state/wire.ts";
import { seconds } from "../../lib/seconds.ts";
import { clock } from "../../state/clock.ts";
import { Blocks, Text } from "./content.tsx";
import { InputCard } from "./input-card.tsx";
import { JsonTree } from "../widgets/json-tree.tsx";
import { Provenance } from "../widgets/provenance.tsx";
import { SignInOffer } from "../sign-in/sign-in-card.tsx";
import { TaskCard } from "./task-card.tsx";
import { UrlElicitations } from "./url-elicitations.tsx";

const read = readLinked;

function Rounds({ call }: { call: CallRecord }) {
  const traced = exchanges.value.filter((e) => e.traceId === call.traceId);
  const rounds = traced.flatMap((e) =>
    e.frames.flatMap((f) => {
      const result =
        isRecord(f.message) && isRecord(f.message.result) ? f.message.result : undefined;
      return result?.resultType === "input_required" ? [result] : [];
    }),
  );
  if (rounds.length === 0 && traced.length <= 1) return null;
  return (
    <div class="rounds">
      <span class="muted small">
        {traced.length} exchange{traced.length === 1 ? "" : "s"}
        {" · "}
        <button type="button" class="link-button small" onClick={() => (pane.value = "wire")}>
          see the wire
        </button>
      </span>
      {rounds.map((r, i) => {
        const keys = isRecord(r.inputRequests) ? Object.entries(r.inputRequests) : [];
        return (
          <div key={i} class="round">
            <span class="badge">round {i + 1}</span> the server answered <code>input_required</code>
            {keys.length > 0 ? (
              <>
                {" "}
                asking for{" "}
                {keys.map(([k, v]) => `${k} (${isRecord(v) ? String(v.method) : "?"})`).join(", ")}
              </>
            ) : (
              " with state only"
            )}
            {typeof r.requestState === "string" ? (
              <div class="small">
                <span class="badge sealed">sealed requestState</span> {r.requestState.length}{" "}
                characters, opaque to the client, sent back unchanged:{" "}
                <code class="truncate">{r.requestState.slice(0, 48)}…</code>
              </div>
            ) : null}
          </div>
        );
      })}
      {rootsAnswered.value > 0 && rounds.some((r) => JSON.stringify(r).includes("roots/list")) ? (
        <div class="muted small">roots/list was answered from your roots list (Server pane).</div>
      ) : null}
    </div>
  );
}

function ToolResult({
  result,
  outputSchema,
}: {
  result: CallToolResult;
  outputSchema: Schema | undefined;
}) {
  // Validated again when a pattern test answers.
  void patternRound.value;
  const view = viewToolResult(result, outputSchema);
  return (
    <div class={view.isError ? "result is-error" : "result"}>
      {view.isError ? (
        <div class="banner error" role="status">
          <strong>isError: true</strong> — the model sees this as the tool's failure and may try
          again:
          <pre class="plain">{view.modelText}</pre>
        </div>
      ) : null}
      <Blocks blocks={result.content} onRead={read} />
      {view.structured ? (
        <section class="structured">
          <h4>
            structuredContent{" "}
            {view.structured.problems === undefined ? (
              <span class="muted small">(no output schema to check against)</span>
            ) : view.structured.problems.length === 0 ? (
              <span class="ok-text small">✓ matches the output schema</span>
            ) : (
              <span class="error-text small">
                ✗ {view.structured.problems.length} mismatch(es) with the output schema
              </span>
            )}
          </h4>
          <JsonTree value={view.structured.value} problems={view.structured.problems} />
        </section>
      ) : null}
      {view.missingStructured ? (
        <p class="banner warn">The tool declares an output schema but sent no structuredContent.</p>
      ) : null}
    </div>
  );
}

function PromptResult({ result }: { result: GetPromptResult }) {
  return (
    <div class="result">
      {result.description ? <p class="muted">{result.description}</p> : null}
      <ol class="messages">
        {result.messages.map((m, i) => (
          <li key={i} class={`message ${m.role}`}>
            <span class="badge">{m.role}</span>
            <Blocks blocks={[m.content]} onRead={read} />
          </li>
        ))}
      </ol>
    </div>
  );
}

function ResourceResult({ result }: { result: ReadResourceResult }) {
  return (
    <div class="result">
      {result.contents.map((c, i) => (
        <div key={i} class="embedded">
          <div class="embedded-head">
            <code>{c.uri}</code> <span class="muted small">{c.mimeType ?? ""}</span>
          </div>
          {"text" in c ? (
            c.mimeType === "application/json" ? (
              <JsonText text={c.text} />
            ) : (
              <Text text={c.text} markdown={c.mimeType === "text/markdown"} />
            )
          ) : (
            <Blocks blocks={[{ type: "resource", resource: c }]} onRead={read} />
          )}
        </div>
      ))}
    </div>
  );
}

function JsonText({ text }: { text: string }) {
  try {
    return <JsonTree value={JSON.parse(text)} />;
  } catch {
    return <pre class="plain">{text}</pre>;
  }
}

/** A call while it runs (progress, elapsed, cancel, questions) and its result or error. */
export function CallView({
  call,
  outputSchema,
}: {
  call: CallRecord;
  outputSchema?: Schema | undefined;
}) {
  const running = call.status === "running";
  const task = call.taskId ? tasks.value.find((t) => t.taskId === call.taskId) : undefined;
  // A call that became a task lasts as long as the task: its request ended at once.
  const endedAt = task
    ? TERMINAL_TASK_STATUSES.includes(task.task.status)
      ? task.updatedAt
      : undefined
    : call.endedAt;
  // The clock ticks a few times a second: just after a start it can be behind the call's times.
  const elapsed = Math.max(0, (endedAt ?? clock.value) - call.startedAt);
  const sinceActivity = Math.max(0, clock.value - call.lastActivity);
  const p = call.progress;
  const reply = call.tool ?? call.prompt ?? call.resource;
  const state = callState(call.status, task?.task.status);
  // A call that became a task has ended, but the task may still ask for input while it is
  // followed (a 2025 server on its tasks/result or session stream, 2026 in its polls).
  const asking = running || task?.following === true;
  // A call just sent is brought into view, and again when a quick one ends (its result is
  // taller than the running call was): below a long form it would start, and end, out of sight.
  // An earlier call shown again (its item reopened), or a long call the person may have scrolled
  // away from, leaves the page where it is.
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    const quick = Date.now() - call.startedAt < 2000;
    if (quick) section.current?.scrollIntoView({ block: "start" });
  }, [call.id, running]);
  return (
    <section ref={section} class="call" aria-label="Call" aria-live="polite" aria-busy={running}>
      <div class="call-status">
        <span class={`status-dot ${state.tone}`} aria-hidden="true" />
        <strong>{state.label}</strong>
        <span class="muted"> {seconds(elapsed)}</span>
        {reply ? <Provenance reply={reply} now={clock.value} /> : null}
        {running ? (
          <>
            <span class="muted small">
              {" "}
              · timeout in {seconds(Math.max(0, call.timeoutMs - sinceActivity))} (restarts on
              progress)
            </span>
            <button type="button" class="danger" onClick={() => cancelCall(call.id)}>
              Cancel
            </button>
          </>
        ) : null}
      </div>
      {p ? (
        <div class="progress-line">
          <progress value={p.progress} max={p.total ?? undefined} aria-label="Progress" />
          <span class="small">
            {p.total ? `${p.progress} / ${p.total}` : p.progress}
            {p.message ? ` — ${p.message}` : ""}
          </span>
        </div>
      ) : null}
      <Rounds call={call} />
      {asking
        ? pendingInputs.value.map((input) => <InputCard key={input.id} input={input} />)
        : null}
      {task ? <TaskCard entry={task} /> : null}
      {call.error ? (
        <div class="banner error" role="alert">
          <strong>
            {call.error.code === undefined ? "Error" : `JSON-RPC error ${call.error.code}`}:
          </strong>{" "}
          {call.error.message}
          <UrlElicitations code={call.error.code} data={call.error.data} />
          {call.error.data !== undefined ? <JsonTree value={call.error.data} /> : null}
        </div>
      ) : null}
      {call.error?.status === 401 && session.value && !signIns.value[session.value.url] ? (
        <SignInOffer
          url={session.value.url}
          why="The server answered 401 to this call: it needs a signed-in caller."
        />
      ) : null}
      {call.tool ? <ToolResult result={call.tool.result} outputSchema={outputSchema} /> : null}
      {call.prompt ? <PromptResult result={call.prompt.result} /> : null}
      {call.resource ? <ResourceResult result={call.resource.result} /> : null}
      {call.logs > 0 ? (
        <button type="button" class="link-button small" onClick={() => (pane.value = "logs")}>
          {call.logs} log message{call.logs === 1 ? "" : "s"} — open Logs
        </button>
      ) : null}
    </section>
  );
}
