import { checkHttpReply } from "../../../shared/check/index.ts";
import type { FetchLike } from "../../../shared/client/index.ts";
import { relayHeaders } from "../../../shared/relay.ts";
import { describeRequest, type Exchange } from "../lib/exchange.ts";
import { passThrough } from "./wire-body.ts";
import { exchanges, MAX_EXCHANGES, nextExchangeId, publish, resumeOf } from "./wire.ts";

// Statuses whose responses must not have a body (a Response built with one throws).
const NULL_BODY = [101, 204, 205, 304];

/**
 * A fetch that records every exchange for the wire view: request headers and body as sent,
 * response status and headers, each SSE event with its arrival time, byte counts, and the
 * protocol checks. The recorder sees the bytes the client reads; nothing is changed.
 */
export function recordingFetch(
  inner: FetchLike = (url, init) => fetch(url, init),
  via?: { relayUrl: string },
): FetchLike {
  return async (url, init) => {
    const t0 = performance.now();
    const requestHeaders = [...new Headers(init.headers).entries()];
    const requestBody = typeof init.body === "string" ? init.body : "";
    const exchange: Exchange = {
      id: nextExchangeId(),
      rev: 0,
      startedAt: Date.now(),
      url,
      httpMethod: init.method ?? "GET",
      era: "modern",
      requestHeaders,
      requestBody,
      frames: [],
      bytes: 0,
      ...describeRequest(requestBody, requestHeaders),
      ...(via
        ? {
            relay: {
              url: via.relayUrl,
              requestHeaders: [...relayHeaders(url, init, "(this page's relay token)").entries()],
            },
          }
        : {}),
    };
    resumeOf(exchange);
    exchanges.value = [...exchanges.value, exchange].slice(-MAX_EXCHANGES);
    let response: Response;
    try {
      response = await inner(url, init);
    } catch (error) {
      exchange.error = init.signal?.aborted
        ? "aborted before an answer"
        : `no answer: ${String(error)}`;
      exchange.end = performance.now() - t0;
      publish(exchange);
      throw error;
    }
    exchange.ttfb = performance.now() - t0;
    exchange.status = response.status;
    exchange.responseHeaders = [...response.headers.entries()];
    exchange.contentType = (response.headers.get("Content-Type") ?? "")
      .split(";")[0]!
      .trim()
      .toLowerCase();
    const notification = exchange.rpcMethod !== undefined && exchange.rpcId === undefined;
    if (exchange.httpMethod === "POST" && exchange.rpcMethod !== undefined)
      exchange.findings.push(
        ...checkHttpReply(response.status, Object.fromEntries(exchange.responseHeaders), {
          era: exchange.era,
          notification,
        }),
      );
    publish(exchange);
    if (!response.body || NULL_BODY.includes(response.status)) {
      exchange.end = exchange.ttfb;
      return response;
    }
    const body = passThrough(exchange, response.body, t0);
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
