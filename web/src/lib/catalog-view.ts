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

/** The resource where an edgemcp hub reports its upstreams' state. */
export const HUB_UPSTREAMS_URI = "edgemcp://hub/upstreams";

/** An upstream's state as the hub reports it. */
export type UpstreamHealth = {
  name: string;
  ok: boolean;
  reason?: string;
  latencyMs?: number;
  tools?: number;
};

/**
 * Reads the hub's upstreams resource (`{"upstreams":[{"name","health","latencyMs","tools",
 * "reason"?}]}`); anything else reads as no report.
 */
export function upstreamReport(text: string | undefined): UpstreamHealth[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text ?? "");
  } catch {
    return [];
  }
  const list = (parsed as { upstreams?: unknown } | null)?.upstreams;
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry: unknown): UpstreamHealth[] => {
    if (typeof entry !== "object" || entry === null) return [];
    const { name, health, reason, latencyMs, tools } = entry as Record<string, unknown>;
    if (typeof name !== "string") return [];
    return [
      {
        name,
        ok: health === "ok",
        ...(typeof reason === "string" ? { reason } : {}),
        ...(typeof latencyMs === "number" ? { latencyMs } : {}),
        ...(typeof tools === "number" ? { tools } : {}),
      },
    ];
  });
}
