import type { FetchLike } from "../../shared/client/index.ts";

/** The remote MCP endpoint: every HTTP request the bridge makes goes through here. */
export class Upstream {
  constructor(
    readonly url: string,
    /** Sent with every request (credentials); the transport's own headers win. */
    private readonly headers: Record<string, string>,
    private readonly fetch: FetchLike,
  ) {}

  /** POSTs one JSON-RPC message with the transport headers it needs. */
  post(message: unknown, transport: Record<string, string>, signal?: AbortSignal) {
    return this.fetch(this.url, {
      method: "POST",
      headers: {
        ...this.headers,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        ...transport,
      },
      body: JSON.stringify(message),
      ...(signal ? { signal } : {}),
    });
  }

  /** Opens a 2025 server's stream of messages it sends on its own. */
  listen(transport: Record<string, string>, signal: AbortSignal) {
    return this.fetch(this.url, {
      method: "GET",
      headers: { ...this.headers, Accept: "text/event-stream", ...transport },
      signal,
    });
  }

  /** Ends a 2025 session; a courtesy, since servers expire sessions anyway. */
  async endSession(transport: Record<string, string>): Promise<void> {
    try {
      const response = await this.fetch(this.url, {
        method: "DELETE",
        headers: { ...this.headers, ...transport },
      });
      await response.body?.cancel();
    } catch {
      // The server is gone or refuses: nothing to clean up then.
    }
  }
}
