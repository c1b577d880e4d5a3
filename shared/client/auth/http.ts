import { OversizedBodyError, readBytesWithin } from "../../bounded-body.ts";
import type { FetchLike } from "../options.ts";

/** The most an authorization server's answer (metadata, registration, tokens) may weigh. */
export const MAX_AUTH_BODY_BYTES = 256 * 1024;

/** How long one request of a sign-in may take, so a server that never answers cannot hang it. */
export const AUTH_REQUEST_TIMEOUT_MS = 30_000;

/** Thrown when an answer is larger than `MAX_AUTH_BODY_BYTES`. */
export class BodyTooLargeError extends Error {
  constructor(readonly url: string) {
    super(`The answer from ${url} is larger than ${MAX_AUTH_BODY_BYTES} bytes.`);
  }
}

/** True for hosts that never leave this machine, where plain http is allowed. */
export function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return host === "localhost" || host === "[::1]" || host.startsWith("127.");
}

/**
 * A fetch for the sign-in's own requests: a time limit, and the body read whole up to a bound
 * and passed on as a new response, so nothing downstream reads an unbounded stream.
 */
export function boundedFetch(base: FetchLike): FetchLike {
  return async (url, init) => {
    const timeout = AbortSignal.timeout(AUTH_REQUEST_TIMEOUT_MS);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = await base(url, { ...init, signal });
    const body = await readBounded(response, url);
    const nullBody = response.status === 204 || response.status === 304;
    return new Response(nullBody ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

async function readBounded(response: Response, url: string): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return await readBytesWithin(response, MAX_AUTH_BODY_BYTES);
  } catch (error) {
    if (error instanceof OversizedBodyError) throw new BodyTooLargeError(url);
    throw error;
  }
}
