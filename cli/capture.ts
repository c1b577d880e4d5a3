import type { FetchLike } from "../shared/client/index.ts";

/** A request as it would go over the wire. */
export type WireRequest = { url: string; headers: Headers; body: string };

/** Thrown in place of sending the captured request; the client reports it as a network failure. */
class CaptureStop extends Error {
  override readonly name = "CaptureStop";
}

/**
 * A fetch that sends everything except the request it is armed for, which it keeps instead:
 * `--curl` shows exactly what the client would send (headers, `_meta`, `Mcp-Param-*`) without
 * running a tool.
 */
export class CapturingFetch {
  private armed: string | undefined;
  captured: WireRequest | undefined;

  constructor(private readonly inner: FetchLike = (url, init) => fetch(url, init)) {}

  readonly fetch: FetchLike = async (url, init) => {
    const body = typeof init.body === "string" ? init.body : undefined;
    if (this.armed !== undefined && body !== undefined && methodOf(body) === this.armed) {
      this.armed = undefined;
      this.captured = { url, headers: new Headers(init.headers), body };
      throw new CaptureStop(`captured ${url}`);
    }
    return this.inner(url, init);
  };

  /** Keeps (and does not send) the next request for `method`. */
  arm(method: string): void {
    this.armed = method;
    this.captured = undefined;
  }

  /** The kept request, once the armed call has failed with the capture. */
  take(): WireRequest {
    const request = this.captured;
    if (request === undefined) throw new Error("The request to print was never sent.");
    this.captured = undefined;
    return request;
  }
}

function methodOf(body: string): string | undefined {
  try {
    const message: unknown = JSON.parse(body);
    return typeof message === "object" && message !== null && "method" in message
      ? String(message.method)
      : undefined;
  } catch {
    return undefined;
  }
}
