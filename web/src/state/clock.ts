import { signal } from "@preact/signals";

/** The time, ticking twice a second, for elapsed times and cache freshness. */
export const clock = signal(Date.now());
setInterval(() => (clock.value = Date.now()), 500);

export function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}
