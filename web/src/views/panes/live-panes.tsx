import { useState } from "preact/hooks";
import { LOG_LEVELS } from "../../../../shared/protocol/meta.ts";
import { backgroundState } from "../../state/background.ts";
import {
  arrivals,
  closeListen,
  openListen,
  reopenListen,
  SESSION_STREAM,
  streams,
} from "../../state/listen.ts";
import { logRows, markLevel } from "../../state/logs.ts";
import { logLevel, session } from "../../state/store.ts";
import { openTask, tasks } from "../../state/tasks.ts";
import { TaskCard } from "../call/task-card.tsx";

const KINDS = [
  ["toolsListChanged", "tools list changed"],
  ["promptsListChanged", "prompts list changed"],
  ["resourcesListChanged", "resources list changed"],
] as const;

const SESSION_WORDS: Record<string, string> = {
  connecting: "connecting",
  open: "open: what the server sends outside a call arrives below and in the Logs pane",
  reconnecting: "reconnecting",
  unsupported: "not offered by this server (it answered the GET with 405)",
  closed: "closed",
  failed: "failed",
};

/** A 2025 session's background stream: where it stands (it opens on connect by itself). */
function SessionStream() {
  const state = backgroundState.value;
  if (!state) return null;
  return (
    <p class={`session-stream ${state.status}`}>
      <span class="badge">{state.status}</span> Session stream:{" "}
      {SESSION_WORDS[state.status] ?? state.status}
      {state.detail && state.status !== "open" ? (
        <span class="muted small"> {state.detail}</span>
      ) : null}
    </p>
  );
}

/** Open listen streams (pick what to hear), what arrived, and reconnecting a dropped stream. */
export function ListenPane() {
  const [picked, setPicked] = useState<Record<string, boolean>>({
    toolsListChanged: true,
    promptsListChanged: true,
    resourcesListChanged: true,
  });
  const [uris, setUris] = useState("");
  const listens = session.value?.client.eraTraits.listen ?? false;
  return (
    <div class="pad">
      {!session.value ? (
        <p class="muted">Connect first.</p>
      ) : !listens ? (
        <>
          <p class="banner warn">
            Listen streams are a 2026-07-28 feature; this server speaks 2025.
          </p>
          <SessionStream />
        </>
      ) : null}
      <fieldset class="group">
        <legend>Listen for</legend>
        {KINDS.map(([key, label]) => (
          <label class="checkbox-line" key={key}>
            <input
              type="checkbox"
              checked={picked[key] === true}
              onChange={(e) => setPicked({ ...picked, [key]: e.currentTarget.checked })}
            />{" "}
            {label}
          </label>
        ))}
        <label class="block-label" for="listen-uris">
          Resource updates for URIs (one per line)
        </label>
        <textarea
          id="listen-uris"
          rows={2}
          value={uris}
          onInput={(e) => setUris(e.currentTarget.value)}
          placeholder="notes://note-1"
        />
        <button
          type="button"
          class="primary"
          disabled={!listens}
          onClick={() => {
            const resourceSubscriptions = uris
              .split("\n")
              .map((u) => u.trim())
              .filter((u) => u !== "");
            void openListen({
              ...Object.fromEntries(Object.entries(picked).filter(([, v]) => v)),
              ...(resourceSubscriptions.length ? { resourceSubscriptions } : {}),
            });
          }}
        >
          Open listen stream
        </button>
      </fieldset>
      <ul class="streams">
        {streams.value.map((s) => (
          <li key={s.id} class={`stream ${s.state}`}>
            <span class="badge">{s.state}</span> stream {s.id}{" "}
            <span class="muted small">{Object.keys(s.honoured ?? s.filter).join(", ")}</span>
            {s.error ? <div class="small error-text">{s.error}</div> : null}
            {s.state === "open" ? (
              <button type="button" class="small-button" onClick={() => void closeListen(s.id)}>
                Close
              </button>
            ) : s.state !== "opening" ? (
              <button type="button" class="small-button" onClick={() => reopenListen(s.id)}>
                Reconnect
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <h3>Arrived</h3>
      {arrivals.value.length === 0 ? <p class="muted small">Nothing yet.</p> : null}
      <ol class="arrivals" aria-live="polite">
        {arrivals.value.map((a, i) => (
          <li key={arrivals.value.length - i}>
            <span class="muted small">
              {new Date(a.at).toLocaleTimeString()} ·{" "}
              {a.stream === SESSION_STREAM ? "session stream" : `stream ${a.stream}`}
            </span>{" "}
            <code>{a.notification.method}</code>
            {a.notification.method === "notifications/resources/updated" ? (
              <code> {a.notification.params.uri}</code>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** Tasks started from here (or opened by id): status, poll, cancel, result. */
export function TasksPane() {
  const [id, setId] = useState("");
  return (
    <div class="pad">
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (id.trim()) void openTask(id.trim());
        }}
      >
        <label for="task-id">Open a task by id</label>
        <input id="task-id" value={id} onInput={(e) => setId(e.currentTarget.value)} />
        <button type="submit" disabled={!session.value}>
          Open
        </button>
      </form>
      {tasks.value.length === 0 ? (
        <p class="muted small">
          No tasks yet. Tools that run as tasks (ops: scan_repo) show up here.
        </p>
      ) : null}
      {tasks.value.map((t) => (
        <TaskCard key={t.taskId} entry={t} />
      ))}
    </div>
  );
}

/** Log messages servers sent, and the level the playground asks for. */
export function LogsPane() {
  return (
    <div class="pad">
      <label for="log-level">Ask for log messages at or above</label>{" "}
      <select
        id="log-level"
        onChange={(e) => {
          logLevel.value = LOG_LEVELS.find((l) => l === e.currentTarget.value) ?? "";
          markLevel(logLevel.value);
        }}
      >
        <option value="" selected={logLevel.value === ""}>
          none (no log messages)
        </option>
        {LOG_LEVELS.map((l) => (
          <option key={l} value={l} selected={logLevel.value === l}>
            {l}
          </option>
        ))}
      </select>
      <p class="muted small">
        2026-07-28 sends the level with each request (_meta logLevel); 2025 servers get
        logging/setLevel.
      </p>
      <ol class="logs">
        {logRows.value.map((l) =>
          "message" in l ? (
            <li key={l.seq} class={`log ${l.message.level}`}>
              <span class="badge">{l.message.level}</span>{" "}
              <span class="muted small">
                {new Date(l.at).toLocaleTimeString()} · {l.source}
              </span>{" "}
              {typeof l.message.data === "string" ? (
                l.message.data
              ) : (
                <code>{JSON.stringify(l.message.data)}</code>
              )}
            </li>
          ) : (
            <li key={l.seq} class="log-mark muted small">
              {new Date(l.at).toLocaleTimeString()} · asked for{" "}
              {l.level ? `${l.level} and above` : "no log messages"}
            </li>
          ),
        )}
      </ol>
    </div>
  );
}
