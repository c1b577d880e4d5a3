import { taskSupportOf, type Tool } from "../../../../shared/protocol/primitives.ts";
import { runAsTask } from "../../state/tasks.ts";

/**
 * Says, before sending, that a 2025-11-25 tool runs as a task: always when it requires one,
 * by choice when it allows one. Tools that say nothing (and every 2026 tool) show nothing.
 */
export function TaskMode({ tool }: { tool: Tool }) {
  const support = taskSupportOf(tool);
  if (support === "forbidden") return null;
  if (support === "required") {
    return (
      <p class="banner info task-mode">
        Runs as a task: the server answers at once with a task, which is polled until its result
        (shown here and in the Tasks pane, where it can be cancelled).
      </p>
    );
  }
  const id = `as-task-${tool.name}`;
  return (
    <label class="checkbox-line task-mode" for={id}>
      <input
        id={id}
        type="checkbox"
        checked={runAsTask.value[tool.name] === true}
        onChange={(e) =>
          (runAsTask.value = { ...runAsTask.value, [tool.name]: e.currentTarget.checked })
        }
      />{" "}
      Run as a task (the tool allows it: the call returns a task at once, polled until its result)
    </label>
  );
}
