// What every bench Worker serves, and what the harness expects back: one source for both.

export const ECHO_TEXT = "hello from the bench";
export const PROGRESS_STEPS = 10;
export const BIG_TEXT_BYTES = 1024 * 1024;
export const RESOURCE_URI = "bench://readme";
export const RESOURCE_TEXT = "A small resource served by every bench Worker.";
/** Tools every MCP bench Worker has besides the generated ones: echo, progress, big. */
export const FIXED_TOOLS = 3;

/** Bindings of the bench Workers: how many no-op tools to generate (default 1). */
export type BenchEnv = { N_TOOLS?: string };

export function toolCount(env: BenchEnv): number {
  const n = Number(env.N_TOOLS ?? "1");
  return Number.isInteger(n) && n >= 0 ? n : 1;
}

export function generatedToolName(i: number): string {
  return `tool_${i}`;
}

/** A 1 MiB text result, built once per isolate. */
export const BIG_TEXT = "x".repeat(BIG_TEXT_BYTES);
