import type {
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from "../../../shared/protocol/primitives.ts";
import { isRecord } from "./json.ts";

/** One entry of the catalog list, whatever its kind. */
export type Item =
  | { kind: "tool"; key: string; item: Tool }
  | { kind: "prompt"; key: string; item: Prompt }
  | { kind: "resource"; key: string; item: Resource }
  | { kind: "template"; key: string; item: ResourceTemplate };

/** What a person reads as the item's name: title, then annotations' title, then the name. */
export function displayName(entry: Item): string {
  const item = entry.item;
  if (entry.kind === "tool" && !entry.item.title && entry.item.annotations?.title)
    return entry.item.annotations.title;
  return item.title ?? item.name;
}

/** Whether every word of the query appears in the item's name, title, URI or description. */
export function matches(entry: Item, query: string): boolean {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== "");
  if (words.length === 0) return true;
  const item = entry.item;
  const hay = [entry.key, item.name, item.title ?? "", item.description ?? ""]
    .join(" ")
    .toLowerCase();
  return words.every((w) => hay.includes(w));
}

// Where edgemcp's hub records an entry's upstream.
const PROVENANCE = "dev.edgemcp/upstream";

/** The upstream a hub entry came from: its provenance, else the name's prefix before `__`. */
export function upstreamOf(entry: Item, upstreams: readonly string[]): string | undefined {
  const meta = entry.item._meta;
  const provenance = isRecord(meta) ? meta[PROVENANCE] : undefined;
  if (isRecord(provenance) && typeof provenance.server === "string") return provenance.server;
  if (entry.kind === "tool" || entry.kind === "prompt") {
    const prefix = entry.item.name.split("__")[0];
    if (
      prefix !== undefined &&
      prefix !== entry.item.name &&
      (upstreams.length === 0 || upstreams.includes(prefix))
    )
      return prefix;
  }
  return undefined;
}

/** An upstream's state as the hub describes it in its instructions. */
export type UpstreamHealth = { name: string; ok: boolean; reason?: string };

/** Reads "Servers: a, b (unavailable: why)" from the hub's instructions. */
export function upstreamHealth(instructions: string | undefined): UpstreamHealth[] {
  const list = /Servers: (.*?)(?:\. Left out|\.$)/s.exec(instructions ?? "")?.[1];
  if (!list) return [];
  const out: UpstreamHealth[] = [];
  for (const m of list.matchAll(/([A-Za-z0-9_.-]+)(?: \(unavailable: (.*?)\))?(?:, |$)/g)) {
    out.push(
      m[2] === undefined ? { name: m[1]!, ok: true } : { name: m[1]!, ok: false, reason: m[2] },
    );
  }
  return out;
}
