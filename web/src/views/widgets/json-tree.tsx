import { useState } from "preact/hooks";
import { pointerOf, type Path } from "../../lib/json.ts";
import type { Problem } from "../../lib/schema/validate.ts";

type Props = {
  value: unknown;
  problems?: Problem[] | undefined;
  label?: string;
  path?: Path;
  depth?: number;
};

function preview(value: unknown): string {
  if (Array.isArray(value)) return `[${value.length}]`;
  if (value !== null && typeof value === "object") return `{${Object.keys(value).length}}`;
  return JSON.stringify(value) ?? "undefined";
}

/** A JSON value as a collapsible tree; members that fail a schema are marked with the reason. */
export function JsonTree({ value, problems = [], label, path = [], depth = 0 }: Props) {
  const [open, setOpen] = useState(depth < 2);
  const pointer = pointerOf(path);
  const own = problems.filter((p) => p.pointer === pointer);
  const mark =
    own.length > 0 ? (
      <span class="tree-problem" role="note">
        {" "}
        ⚠ {own.map((p) => p.message).join("; ")}
      </span>
    ) : null;
  const name = label === undefined ? null : <span class="tree-key">{label}: </span>;
  const container = value !== null && typeof value === "object";
  if (!container)
    return (
      <div class={`tree-leaf${own.length ? " invalid" : ""}`}>
        {name}
        <span class={`tree-${value === null ? "null" : typeof value}`}>
          {JSON.stringify(value)}
        </span>
        {mark}
      </div>
    );
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  return (
    <div class={`tree-node${own.length ? " invalid" : ""}`}>
      <button type="button" class="tree-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "▾" : "▸"} {name}
        <span class="muted">{preview(value)}</span>
      </button>
      {mark}
      {open && (
        <div class="tree-children">
          {entries.map(([key, child]) => (
            <JsonTree
              key={key}
              value={child}
              problems={problems}
              label={String(key)}
              path={[...path, key]}
              depth={depth + 1}
            />
          ))}
        </div>
      )}
    </div>
  );
}
