// The cluster soak's account of the front's upstream errors: how many of each outcome and code,
// and each one the client saw (a 502 or a cut answer) with its code, the connection it went out
// on and when it came relative to the nearest restart, so that an error outside the restart
// windows can be told apart from the fault's effect.
import type { UpstreamError } from "../cluster/front.ts";

type Window = { from: number; to: number };

/** Where `at` lies relative to the nearest restart (1-based), or that there was none. */
export function relativeToRestart(at: number, windows: Window[]): string {
  if (windows.length === 0) return "no restart";
  const distance = ({ from, to }: Window) => (at < from ? from - at : at > to ? at - to : 0);
  let nearest = 0;
  windows.forEach((window, i) => {
    if (distance(window) < distance(windows[nearest] as Window)) nearest = i;
  });
  const { from, to } = windows[nearest] as Window;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  if (at < from) return `${s(from - at)} before restart ${nearest + 1} began`;
  if (at <= to) return `${s(at - from)} into restart ${nearest + 1}`;
  return `${s(at - to)} after restart ${nearest + 1} served again`;
}

export function upstreamErrorReport(errors: UpstreamError[], since: number, windows: Window[]) {
  const during = errors.filter((error) => error.at >= since);
  const lines = [`Front's upstream errors: ${during.length}`];
  const kinds = new Map<string, number>();
  for (const { outcome, code, reused } of during) {
    const kind = `${outcome}, ${code}${reused ? " on a reused connection" : ""}`;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  for (const [kind, n] of kinds) lines.push(`  ${n} × ${kind}`);
  const seen = during.filter(({ outcome }) => outcome === "502" || outcome === "cut");
  if (seen.length > 0) lines.push("  Those the client saw (502 or a cut answer):");
  for (const error of seen) {
    const connection = error.reused
      ? `a reused connection${error.idleMs === undefined ? "" : ` idle ${(error.idleMs / 1000).toFixed(1)} s`}`
      : "a new connection";
    lines.push(
      `    ${new Date(error.at).toISOString().slice(11, 23)} ${error.outcome} ${error.code}, worker ${error.worker} (port ${error.port}), ${error.method} ${error.path}, ${connection}; ${relativeToRestart(error.at, windows)}`,
    );
  }
  return lines.join("\n");
}
