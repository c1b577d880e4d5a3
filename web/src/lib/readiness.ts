import { UriTemplate } from "../../../shared/uri-template.ts";
import type { Item } from "./catalog-view.ts";
import { isRecord } from "./json.ts";
import type { RequestKind } from "./permalink.ts";
import { formModel } from "./schema/model.ts";
import { validate } from "./schema/validate.ts";
import { initialValue } from "./schema/values.ts";

const filled = (args: unknown, name: string) =>
  isRecord(args) && typeof args[name] === "string" && args[name] !== "";

/** The request kind and name (or URI) an item is called with. */
export function requestOf(entry: Item): { kind: RequestKind; name: string } {
  switch (entry.kind) {
    case "tool":
    case "prompt":
      return { kind: entry.kind, name: entry.item.name };
    case "resource":
      return { kind: "resource", name: entry.item.uri };
    case "template":
      return { kind: "template", name: entry.item.uriTemplate };
  }
}

/** The arguments an item is sent with: its draft, or for a tool its schema's defaults. */
export function argumentsOf(entry: Item, draft: unknown): unknown {
  return draft === undefined && entry.kind === "tool"
    ? initialValue(formModel(entry.item.inputSchema))
    : draft;
}

/**
 * Why an item's request cannot be sent with these arguments, in words for the send bar, or
 * undefined when it can. `jsonParses` is whether the arguments' JSON text (when edited as text)
 * parses. A pattern check the page could not finish blocks nothing: the server still checks.
 */
export function whyNotReady(entry: Item, args: unknown, jsonParses: boolean): string | undefined {
  switch (entry.kind) {
    case "tool": {
      if (!jsonParses) return "Fix the JSON first";
      const problems = validate(entry.item.inputSchema, args ?? {}).filter((p) => !p.unchecked);
      return problems.length > 0 ? `${problems.length} problem(s) in the arguments` : undefined;
    }
    case "prompt": {
      const missing = (entry.item.arguments ?? []).filter(
        (a) => a.required === true && !filled(args, a.name),
      );
      return missing.length > 0 ? `Fill ${missing.map((m) => m.name).join(", ")}` : undefined;
    }
    case "template":
      return new UriTemplate(entry.item.uriTemplate).variables.some((v) => !filled(args, v))
        ? "Fill every variable"
        : undefined;
    case "resource":
      return undefined;
  }
}
