import { vi } from "vitest";

/**
 * Runs `run` with console.error muted; gives back what `run` returned and what it printed
 * there, one call per line. The spy is removed even when `run` throws, so a failing test does
 * not silence the next one.
 */
export async function withLoggedErrors<T>(
  run: () => Promise<T>,
): Promise<{ value: T; logged: string }> {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    const value = await run();
    return {
      value,
      logged: errors.mock.calls.map((call) => call.map(String).join(" ")).join("\n"),
    };
  } finally {
    errors.mockRestore();
  }
}
