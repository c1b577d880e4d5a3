import { BodyTooLarge, readRequestBody } from "../http/body.ts";
import { headersForPage, headersForTarget } from "./headers.ts";
import { RelayRefusal } from "./refusal.ts";
import { BOUND_VARIABLES, type RelaySettings } from "./settings.ts";
import { boundedBody } from "./stream.ts";
import { checkTarget } from "./target.ts";

const METHODS = new Set(["GET", "POST", "DELETE", "OPTIONS"]);
const NULL_BODY = new Set([101, 204, 205, 304]);

/** What one relayed exchange needs besides the page's request. */
export type ExchangeOptions = {
  settings: RelaySettings;
  /** Called once when the exchange is over (its body read, cut, or dropped; or a refusal). */
  done: () => void;
};

/**
 * One exchange from the page to the target named by `Relay-Target`, with the method in
 * `Relay-Method` (POST when absent): checked, forwarded with the page's MCP and named headers,
 * and answered with the target's status, the headers a client reads and the body as it streams.
 * Redirects are not followed: the page gets the 3xx with `Relay-Location`, and following it is
 * a new relay request, checked like the first, so a redirect can never lead where a request
 * could not.
 */
export async function relayExchange(request: Request, options: ExchangeOptions): Promise<Response> {
  const { settings, done } = options;
  const { bounds } = settings;
  let passedOn = false;
  try {
    const method = (request.headers.get("Relay-Method") ?? "POST").toUpperCase();
    if (!METHODS.has(method))
      throw new RelayRefusal(400, "method", "Relay-Method must be GET, POST, DELETE or OPTIONS.");
    const target = checkTarget(request.headers.get("Relay-Target") ?? "", settings);
    const headers = headersForTarget(request.headers);
    const body = method === "POST" || method === "DELETE" ? await bodyOf(request, settings) : null;
    const deadline = Date.now() + bounds.totalMs;
    const abort = new AbortController();
    const firstByte = Math.min(bounds.firstByteMs, bounds.totalMs);
    let answer: Response;
    let late = false;
    const waiting = setTimeout(() => ((late = true), abort.abort()), firstByte);
    try {
      answer = await fetch(target, {
        method,
        headers,
        body: body && body.byteLength > 0 ? body : null,
        redirect: "manual",
        signal: abort.signal,
      });
    } catch {
      throw late
        ? new RelayRefusal(
            504,
            "first-byte",
            `The target did not answer within ${firstByte} ms (${BOUND_VARIABLES.firstByteMs}).`,
          )
        : new RelayRefusal(
            502,
            "unreachable",
            `The relay could not reach ${target.host} (connection refused, name not found, or TLS failed).`,
          );
    } finally {
      clearTimeout(waiting);
    }
    const declared = Number(answer.headers.get("Content-Length") ?? NaN);
    if (declared > bounds.responseBytes) {
      await answer.body?.cancel();
      throw new RelayRefusal(
        502,
        "response-size",
        `The target's response is ${declared} bytes, more than ${bounds.responseBytes} (${BOUND_VARIABLES.responseBytes}).`,
      );
    }
    const outHeaders = headersForPage(answer);
    const location = outHeaders.get("Relay-Location");
    if (location !== null) outHeaders.set("Relay-Location", absolute(location, target));
    const stop = () => abort.abort();
    const end = done;
    if (answer.body === null || NULL_BODY.has(answer.status)) {
      await answer.body?.cancel();
      end();
      passedOn = true;
      return new Response(null, { status: answer.status, headers: outHeaders });
    }
    const sse = (answer.headers.get("Content-Type") ?? "").includes("text/event-stream");
    const stream = boundedBody(answer.body, { bounds, deadline, sse, stop, done: end });
    passedOn = true;
    return new Response(stream, { status: answer.status, headers: outHeaders });
  } finally {
    if (!passedOn) done();
  }
}

async function bodyOf(request: Request, settings: RelaySettings): Promise<Uint8Array> {
  try {
    return await readRequestBody(request, {
      maxBytes: settings.bounds.requestBytes,
      deadlineMs: settings.bounds.firstByteMs,
    });
  } catch (error) {
    if (error instanceof BodyTooLarge)
      throw new RelayRefusal(
        413,
        "request-size",
        `The request body is larger than ${settings.bounds.requestBytes} bytes (${BOUND_VARIABLES.requestBytes}).`,
      );
    throw new RelayRefusal(408, "request-size", "The request body did not arrive in time.");
  }
}

function absolute(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}
