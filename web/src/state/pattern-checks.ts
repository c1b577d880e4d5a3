import { signal } from "@preact/signals";
import { onPatternVerdicts } from "../lib/schema/patterns.ts";

/**
 * Counts the pattern tests that have answered (they run off the page's thread): a view that
 * validates reads it, so that it validates again when a verdict arrives.
 */
export const patternRound = signal(0);
onPatternVerdicts(() => patternRound.value++);
