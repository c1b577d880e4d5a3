import type { FetchLike } from "../../../shared/client/index.ts";
import type { FlowExchange } from "../lib/flow-trace.ts";
import { relayOnly } from "./relay.ts";
import { routeChoice } from "./store.ts";

/** How much of each answer the flow view keeps. */
const MAX_BODY_CHARS = 64_000;

const bodyText = (body: RequestInit["body"]): string =>
  typeof body === "string" ? body : body instanceof URLSearchParams ? body.toString() : "";

/** The first characters of an answer's body, read from a copy of it. */
async function preview(response: Response): Promise<string> {
  const reader = response.clone().body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < MAX_BODY_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel();
  } catch {
    // The body failed or was cancelled: keep what arrived.
  }
  return text.slice(0, MAX_BODY_CHARS);
}

/**
 * A fetch for a sign-in's own requests (metadata, registration, tokens): straight from the page,
 * or through this Worker's relay when the route says so or (Auto) when the direct attempt got
 * no readable answer (the server sends no CORS headers). Each exchange goes to `record` (again
 * when its body has been read); before
 * each request `gate` may hold it (step by step). The authorization page never comes here: the
 * browser opens it.
 */
export function flowFetch(
  record: (exchange: FlowExchange) => void,
  gate: (method: string, url: string) => Promise<void>,
): FetchLike {
  return async (url, init) => {
    const method = (init.method ?? "GET").toUpperCase();
    await gate(method, url);
    const sameOrigin = new URL(url).origin === location.origin;
    const route = sameOrigin ? "direct" : routeChoice.value;
    const base = {
      method,
      url,
      requestHeaders: [...new Headers(init.headers).entries()],
      requestBody: bodyText(init.body),
      responseHeaders: [],
      responseBody: "",
    };
    const attempt = async (via: "direct" | "relay"): Promise<Response> => {
      const exchange: FlowExchange = { ...base, via };
      try {
        const response = await (via === "relay" ? relayOnly() : fetch)(url, init);
        exchange.status = response.status;
        exchange.responseHeaders = [...response.headers.entries()];
        record(exchange);
        // Read beside the caller, bounded: the sign-in's own reading limits the real one.
        void preview(response).then((text) => {
          exchange.responseBody = text;
          record(exchange);
        });
        return response;
      } catch (error) {
        exchange.error =
          via === "direct" && !sameOrigin
            ? "no readable answer (the server is unreachable, or sends no CORS headers for this page)"
            : error instanceof Error
              ? error.message
              : String(error);
        record(exchange);
        throw error;
      }
    };
    if (route === "relay") return attempt("relay");
    try {
      return await attempt("direct");
    } catch (error) {
      if (route !== "auto" || sameOrigin || !(error instanceof TypeError)) throw error;
      return attempt("relay");
    }
  };
}
