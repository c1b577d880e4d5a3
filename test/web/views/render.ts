import { h, render, type ComponentType } from "preact";
import { act } from "preact/test-utils";
import { afterEach } from "vitest";

let mounted: HTMLElement[] = [];
afterEach(() => {
  for (const root of mounted) {
    render(null, root);
    root.remove();
  }
  mounted = [];
});

/** Renders a component with its props into a fresh element of the document, effects flushed. */
export function mount<P extends object>(component: ComponentType<P>, props: P): HTMLElement {
  const root = document.createElement("div");
  document.body.append(root);
  mounted.push(root);
  act(() => render(h(component, props), root));
  return root;
}

/** Types into an input or text area as a person would: the value, then an input event. */
export function typeInto(element: Element | null, text: string): void {
  if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement))
    throw new Error("not an input or text area");
  act(() => {
    element.value = text;
    element.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

/** Clicks an element, or changes a checkbox or select, and lets Preact render. */
export function fire(element: Element | null, type: "click" | "change" = "click"): void {
  if (!element) throw new Error("no element");
  act(() => {
    if (type === "click" && element instanceof HTMLElement) element.click();
    else element.dispatchEvent(new Event(type, { bubbles: true }));
  });
}
