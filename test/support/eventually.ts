/**
 * Polls `check` until it returns a value, for effects that reach the server asynchronously
 * (an abort, a cancelled task, a closed stream). Fails naming `what` after `timeoutMs`.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  { timeoutMs = 5000, intervalMs = 50, what = "condition" } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not met in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
