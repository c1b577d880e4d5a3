import { pendingInputs } from "../../state/inputs.ts";
import { history } from "../../state/history.ts";
import { streams } from "../../state/listen.ts";
import { logCount } from "../../state/logs.ts";
import { pane, type Pane } from "../../state/store.ts";
import { tasks } from "../../state/tasks.ts";
import { exchanges } from "../../state/wire.ts";
import { HistoryPane } from "./history-pane.tsx";
import { ListenPane, LogsPane, TasksPane } from "./live-panes.tsx";
import { ServerPane } from "./server-pane.tsx";
import { WirePane } from "./wire-pane.tsx";

/** The panes' names and the counts their tabs show. */
export const PANES: [Pane, string, () => number][] = [
  ["server", "Server", () => 0],
  ["wire", "Wire", () => exchanges.value.length],
  ["history", "History", () => history.value.length],
  ["listen", "Listen", () => streams.value.filter((s) => s.state === "open").length],
  ["tasks", "Tasks", () => tasks.value.length],
  ["logs", "Logs", () => logCount.value],
];

/** The side panel: server facts, the wire, history, listen streams, tasks and logs. */
export function Panes() {
  const current = pane.value;
  return (
    <aside class="panes" aria-label="Panes">
      <div class="tabs pane-tabs" role="tablist" aria-label="Panes">
        {PANES.map(([id, label, count]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`pane-tab-${id}`}
            aria-selected={current === id}
            aria-controls="pane-body"
            class={current === id ? "tab active" : "tab"}
            onClick={() => (pane.value = id)}
          >
            {label}
            {count() > 0 ? <span class="count">{count()}</span> : null}
          </button>
        ))}
      </div>
      {pendingInputs.value.length > 0 ? (
        <p class="banner warn small">
          The server is waiting for your answer (shown with the call).
        </p>
      ) : null}
      <div id="pane-body" role="tabpanel" aria-labelledby={`pane-tab-${current}`} class="pane-body">
        {current === "wire" ? (
          <WirePane />
        ) : current === "history" ? (
          <HistoryPane />
        ) : current === "listen" ? (
          <ListenPane />
        ) : current === "tasks" ? (
          <TasksPane />
        ) : current === "logs" ? (
          <LogsPane />
        ) : (
          <ServerPane />
        )}
      </div>
    </aside>
  );
}
