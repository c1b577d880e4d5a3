import type { Icon } from "../../../../shared/protocol/content.ts";
import { displayName, type Item } from "../../lib/catalog-view.ts";
import { safeHref } from "../../lib/markdown.ts";
import { Markdown } from "../widgets/markdown.tsx";
import { theme } from "../../state/store.ts";

function IconImage({ icons }: { icons: Icon[] | undefined }) {
  const usable = (icons ?? []).filter(
    (i) => i.src.startsWith("data:image/") || safeHref(i.src)?.startsWith("https:"),
  );
  const icon =
    usable.find((i) => i.theme === theme.value) ??
    usable.find((i) => i.theme === undefined) ??
    usable[0];
  return icon ? <img class="item-icon" src={icon.src} alt="" width={28} height={28} /> : null;
}

const HINTS: [
  keyof NonNullable<Extract<Item, { kind: "tool" }>["item"]["annotations"]>,
  string,
  string,
][] = [
  ["readOnlyHint", "read-only", "may change things"],
  ["destructiveHint", "destructive", "not destructive"],
  ["idempotentHint", "idempotent", "not idempotent"],
  ["openWorldHint", "open world", "closed world"],
];

type Annotations = Extract<Item, { kind: "tool" }>["item"]["annotations"];

/**
 * The hints the server gave, as badges; a hint it did not give shows nothing (a default is
 * not something the server said). Read-only makes destructive and idempotent meaningless.
 */
function Hints({ annotations }: { annotations: Annotations }) {
  const given = HINTS.filter(
    ([key]) =>
      typeof annotations?.[key] === "boolean" &&
      !(
        annotations.readOnlyHint === true &&
        (key === "destructiveHint" || key === "idempotentHint")
      ),
  );
  if (given.length === 0) return null;
  return (
    <ul class="annotations" aria-label="Annotations (hints from the server, not guarantees)">
      {given.map(([key, yes, no]) => {
        const on = annotations?.[key] === true;
        return (
          <li key={key} class={`badge ${on ? "on" : "off"}`} title={`${key}: ${on}`}>
            {on ? yes : no}
          </li>
        );
      })}
    </ul>
  );
}

/** An item's name, title, icon, description (Markdown) and, for tools, its annotations. */
export function ItemHeader({ entry }: { entry: Item }) {
  const item = entry.item;
  const id =
    entry.kind === "resource"
      ? entry.item.uri
      : entry.kind === "template"
        ? entry.item.uriTemplate
        : entry.item.name;
  return (
    <header class="item-header">
      <div class="item-title">
        <IconImage icons={item.icons} />
        <h2>{displayName(entry)}</h2>
        <span class="badge kind">{entry.kind}</span>
      </div>
      <code class="item-id">{id}</code>
      {item.description ? (
        <Markdown text={item.description} />
      ) : (
        <p class="muted">No description.</p>
      )}
      {entry.kind === "tool" ? <Hints annotations={entry.item.annotations} /> : null}
      {entry.kind === "resource" || entry.kind === "template" ? (
        <p class="muted small">{entry.item.mimeType ?? "no MIME type given"}</p>
      ) : null}
    </header>
  );
}
