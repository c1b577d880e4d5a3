import {
  exportHistory,
  clearHistory,
  forgetSaved,
  history,
  saved,
  type HistoryEntry,
  type SavedRequest,
} from "../../state/history.ts";
import { replay } from "../../state/replay.ts";

function Row({ entry, saved: isSaved }: { entry: HistoryEntry | SavedRequest; saved: boolean }) {
  return (
    <li class="history-row">
      <div>
        <span class="badge">{entry.kind}</span>{" "}
        <strong>{"label" in entry ? entry.label : entry.name}</strong>
        {"status" in entry ? (
          <span class={`small ${entry.status === "done" ? "ok-text" : "error-text"}`}>
            {" "}
            {entry.status} · {entry.durationMs} ms
          </span>
        ) : null}
        <div class="muted small truncate">
          {"at" in entry ? `${new Date(entry.at).toLocaleString()} · ` : ""}
          {entry.url}
        </div>
        {"summary" in entry && entry.summary ? (
          <div class="small truncate">{entry.summary}</div>
        ) : null}
      </div>
      <div class="button-row">
        <button type="button" class="small-button" onClick={() => void replay(entry, true)}>
          Replay
        </button>
        <button type="button" class="small-button" onClick={() => void replay(entry, false)}>
          Edit
        </button>
        {isSaved ? (
          <button type="button" class="small-button" onClick={() => forgetSaved(entry.id)}>
            Forget
          </button>
        ) : null}
      </div>
    </li>
  );
}

/** Saved requests and the call history kept in this browser; replay, edit, export. */
export function HistoryPane() {
  return (
    <div class="pad">
      <div class="pane-tools">
        <button type="button" class="small-button" onClick={exportHistory}>
          Export JSON
        </button>
        <button type="button" class="small-button" onClick={clearHistory}>
          Clear history
        </button>
      </div>
      <h3>Saved</h3>
      {saved.value.length === 0 ? (
        <p class="muted small">Save a request from its “Save…” button.</p>
      ) : null}
      <ul class="history">
        {saved.value.map((s) => (
          <Row key={s.id} entry={s} saved={true} />
        ))}
      </ul>
      <h3>History</h3>
      {history.value.length === 0 ? (
        <p class="muted small">Calls you make are kept here (in this browser).</p>
      ) : null}
      <ul class="history">
        {history.value.map((h) => (
          <Row key={h.id} entry={h} saved={false} />
        ))}
      </ul>
    </div>
  );
}
