/** One pattern to test against one value, as the page sends it to its pattern thread. */
export type PatternJob = { id: number; pattern: string; text: string };

/**
 * What the thread says of a job: that it has begun (so its time starts only then, not while a
 * fresh thread is still loading), then whether the value matches (JSON Schema patterns are
 * Unicode regexes).
 */
export type PatternAnswer =
  | { id: number; started: true }
  | { id: number; matched: boolean }
  | { id: number; invalid: string };

export function matchPattern({ id, pattern, text }: PatternJob): PatternAnswer {
  try {
    return { id, matched: new RegExp(pattern, "u").test(text) };
  } catch (error) {
    return { id, invalid: error instanceof Error ? error.message : String(error) };
  }
}
