import type { AuthStore } from "../../../shared/client/auth/index.ts";
import { isRecord } from "../lib/json.ts";
import { REMEMBERED } from "./sign-in.ts";

/**
 * Where the page keeps clients and tokens: this page's memory, mirrored into this tab's session
 * storage only while `remember` is on (gone when the tab closes). Never local storage: a token
 * must not outlive the tab or reach another one.
 */
export class PageStore implements AuthStore {
  private readonly values = new Map<string, unknown>();
  private remember = false;

  /** `changed` runs after every save (the page shows the new expiry of a refreshed token). */
  constructor(private readonly changed: () => void = () => {}) {
    try {
      const kept: unknown = JSON.parse(sessionStorage.getItem(REMEMBERED) ?? "null");
      if (isRecord(kept)) {
        for (const [key, value] of Object.entries(kept)) this.values.set(key, value);
        this.remember = true;
      }
    } catch {
      // Unreadable or unavailable storage: start from memory alone.
    }
  }

  get remembering(): boolean {
    return this.remember;
  }

  /** Turns the session storage copy on (written at once) or off (removed at once). */
  setRemember(on: boolean): void {
    this.remember = on;
    this.flush();
  }

  load(key: string): Promise<unknown> {
    return Promise.resolve(structuredClone(this.values.get(key)));
  }

  save(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, structuredClone(value));
    this.flush();
    this.changed();
    return Promise.resolve();
  }

  /** The server URLs that hold a sign-in. */
  servers(): string[] {
    return [...this.values.keys()]
      .filter((key) => key.startsWith("server:"))
      .map((key) => key.slice("server:".length));
  }

  private flush(): void {
    try {
      if (this.remember && this.values.size > 0)
        sessionStorage.setItem(REMEMBERED, JSON.stringify(Object.fromEntries(this.values)));
      else sessionStorage.removeItem(REMEMBERED);
    } catch {
      // Storage full or refused: the sign-in still works for this page's life.
    }
  }
}
