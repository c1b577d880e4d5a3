/** Reads a JSON value the page kept in localStorage, or the fallback when absent or unreadable. */
export function load<T>(key: string, fallback: T, check: (value: unknown) => value is T): T {
  try {
    const text = localStorage.getItem(key);
    if (text === null) return fallback;
    const value: unknown = JSON.parse(text);
    return check(value) ? value : fallback;
  } catch {
    return fallback;
  }
}

/** Keeps a JSON value in localStorage; a full or blocked storage only loses the copy. */
export function save(key: string, value: unknown): void {
  try {
    if (value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the page keeps working from memory.
  }
}
