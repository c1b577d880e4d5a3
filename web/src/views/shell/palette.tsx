import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { displayName, matches } from "../../lib/catalog-view.ts";
import { loadCatalog } from "../../state/catalog.ts";
import { connectTo, disconnect } from "../../state/connection.ts";
import {
  CHECK_KEY,
  endpoints,
  headersOpen,
  items,
  pane,
  paletteOpen,
  selectedKey,
  theme,
} from "../../state/store.ts";
import { PANES } from "../panes/panes.tsx";

type Command = {
  id: string;
  label: string;
  hint: string;
  run: () => void;
  /** Where the keyboard goes once it ran: the main view it changed, or a pane's tab. */
  focus?: string;
};

function commands(): Command[] {
  const list: Command[] = [
    ...items.value.map((e) => ({
      id: e.key,
      label: displayName(e),
      hint: e.kind,
      run: () => (selectedKey.value = e.key),
      focus: "#main",
    })),
    ...endpoints.value.map((ep) => ({
      id: `connect:${ep.path}`,
      label: `Connect to ${ep.path}`,
      hint: ep.title ?? ep.name,
      run: () => void connectTo(`${location.origin}${ep.path}`),
    })),
    ...PANES.map(([id, label]) => ({
      id: `pane:${id}`,
      label: `Open ${label}`,
      hint: "pane",
      run: () => (pane.value = id),
      focus: `#pane-tab-${id}`,
    })),
    {
      id: "check",
      label: "Check this server",
      hint: "conformance",
      run: () => (selectedKey.value = CHECK_KEY),
      focus: "#main",
    },
    {
      id: "refresh",
      label: "Refresh the catalog",
      hint: "network",
      run: () => void loadCatalog("refresh"),
    },
    {
      id: "headers",
      label: "Edit headers",
      hint: "connection",
      run: () => (headersOpen.value = true),
    },
    { id: "disconnect", label: "Disconnect", hint: "connection", run: () => void disconnect() },
    {
      id: "theme",
      label: "Toggle dark / light theme",
      hint: "view",
      run: () => (theme.value = theme.value === "dark" ? "light" : "dark"),
    },
  ];
  return list;
}

/** Ctrl/Cmd-K: jump to any tool, resource or prompt, connect, open a pane; all by keyboard. */
export function Palette() {
  const [text, setText] = useState("");
  const [index, setIndex] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  // What had the keyboard before the palette opened, and where it goes when the palette closes
  // (a dialog that closes must not leave it on the page's body, back at the first Tab stop).
  const opener = useRef<Element | null>(null);
  const focusAfter = useRef<string | undefined>(undefined);
  const open = paletteOpen.value;
  // Focus as soon as the palette is in the page, not after the next paint: keys typed right
  // after Ctrl-K must land in it. It is emptied when it closes, so opening never wipes them.
  useLayoutEffect(() => {
    if (open) {
      opener.current = document.activeElement;
      focusAfter.current = undefined;
      input.current?.focus();
    } else {
      setText("");
      setIndex(0);
      const target = focusAfter.current
        ? document.querySelector(focusAfter.current)
        : opener.current?.isConnected
          ? opener.current
          : null;
      if (target instanceof HTMLElement) target.focus();
    }
  }, [open]);
  if (!open) return null;
  const words = text.toLowerCase();
  const shown = commands()
    .filter(
      (c) =>
        words === "" ||
        `${c.label} ${c.hint} ${c.id}`.toLowerCase().includes(words) ||
        (items.value.find((i) => i.key === c.id) &&
          matches(
            items.value.find((i) => i.key === c.id)!,
            text,
          )),
    )
    .slice(0, 12);
  const close = () => (paletteOpen.value = false);
  const run = (c: Command | undefined) => {
    if (!c) return;
    focusAfter.current = c.focus;
    c.run();
    close();
  };
  return (
    <div class="palette-backdrop" onClick={close}>
      <div
        class="palette"
        role="dialog"
        aria-modal="true"
        aria-label="Command palette"
        onClick={(e) => e.stopPropagation()}
      >
        <label class="sr-only" for="palette-input">
          Command or item
        </label>
        <input
          id="palette-input"
          ref={input}
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={shown[index] ? `cmd-${index}` : undefined}
          placeholder="Type a tool, resource, prompt or command…"
          value={text}
          onInput={(e) => (setText(e.currentTarget.value), setIndex(0))}
          onKeyDown={(e) => {
            const moves: Record<string, () => void> = {
              ArrowDown: () => setIndex(Math.min(index + 1, shown.length - 1)),
              ArrowUp: () => setIndex(Math.max(index - 1, 0)),
              Enter: () => run(shown[index]),
              Escape: close,
            };
            const move = moves[e.key];
            if (move) {
              e.preventDefault();
              move();
            }
          }}
        />
        <ul id="palette-list" role="listbox" aria-label="Matches">
          {shown.map((c, i) => (
            <li
              key={c.id}
              id={`cmd-${i}`}
              role="option"
              aria-selected={i === index}
              class={i === index ? "active" : ""}
              onClick={() => run(c)}
            >
              <span>{c.label}</span> <span class="muted small">{c.hint}</span>
            </li>
          ))}
          {shown.length === 0 ? <li class="muted">No match.</li> : null}
        </ul>
      </div>
    </div>
  );
}
