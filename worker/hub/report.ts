import type { HubView } from "../../shared/hub/hub.ts";
import type { Dropped } from "./servable.ts";

/** One upstream as the status resource reports it. */
export type UpstreamReport = {
  name: string;
  health: "ok" | "unavailable";
  /** How long listing its catalog took when the hub last built it. */
  latencyMs: number;
  tools: number;
  /** Why it is unavailable, without its URL or reply (those are in the Worker's log). */
  reason?: string;
  /** Whose credentials it gets: the caller's token, the operator's secret, or none. */
  credentials: "forward" | "operator" | "none";
  /** Its tools, prompts, resources or templates the hub cannot serve, and why. */
  dropped?: Dropped[];
};

export /** The upstreams' state as of the view, for the status resource. */
function upstreamReport(
  view: HubView,
  credentials: ReadonlyMap<string, UpstreamReport["credentials"]>,
): UpstreamReport[] {
  return view.status.map((s) => ({
    name: s.upstream,
    health: s.ok ? "ok" : "unavailable",
    latencyMs: s.latencyMs,
    tools: s.ok ? s.tools : 0,
    ...(s.ok ? {} : { reason: s.reason }),
    credentials: credentials.get(s.upstream) ?? "none",
  }));
}
