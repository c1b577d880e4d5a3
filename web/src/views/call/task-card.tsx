import { TERMINAL_TASK_STATUSES } from "../../../../shared/protocol/tasks.ts";
import { cancelTask, follow, pollTask, type TaskEntry } from "../../state/tasks.ts";
import { Blocks } from "./content.tsx";
import { runCall } from "../../state/calls.ts";
import { JsonTree } from "../widgets/json-tree.tsx";

/** A task's state and what can be done with it: poll, follow to the end, cancel, see the result. */
export function TaskCard({ entry }: { entry: TaskEntry }) {
  const { task } = entry;
  const ended = TERMINAL_TASK_STATUSES.includes(task.status);
  return (
    <section class="task-card" aria-label={`Task ${entry.taskId}`}>
      <div class="task-head">
        <span class={`badge task-${task.status}`}>{task.status}</span>{" "}
        <strong>{entry.tool ?? "task"}</strong>{" "}
        <code class="small truncate" title={entry.taskId}>
          {entry.taskId}
        </code>
      </div>
      {task.statusMessage ? <p class="small">{task.statusMessage}</p> : null}
      <p class="muted small">
        {task.pollIntervalMs ? `polls every ${task.pollIntervalMs} ms` : ""}
        {task.ttlMs ? ` · kept ${Math.round(task.ttlMs / 60000)} min` : ""}
        {entry.following ? " · following…" : ""}
      </p>
      {ended ? null : (
        <div class="button-row">
          <button type="button" onClick={() => void pollTask(entry.taskId)}>
            Poll now
          </button>
          {entry.following ? null : (
            <button type="button" onClick={() => void follow(entry.taskId)}>
              Follow to the end
            </button>
          )}
          <button type="button" class="danger" onClick={() => void cancelTask(entry.taskId)}>
            Cancel task
          </button>
        </div>
      )}
      {entry.result ? (
        <Blocks
          blocks={entry.result.content}
          onRead={(uri) => void runCall("resource", uri, undefined)}
        />
      ) : null}
      {entry.result?.structuredContent !== undefined ? (
        <JsonTree value={entry.result.structuredContent} />
      ) : null}
      {entry.error ? <p class="banner error">{entry.error}</p> : null}
    </section>
  );
}
