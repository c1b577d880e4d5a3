import { signal } from "@preact/signals";

/** The time, ticking twice a second, for elapsed times and cache freshness. */
export const clock = signal(Date.now());
setInterval(() => (clock.value = Date.now()), 500);
