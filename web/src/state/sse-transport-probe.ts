import { decodeSse } from "../../../shared/sse.ts";
import { recordingFetch } from "./recording-fetch.ts";

// The endpoint event comes first on an HTTP+SSE stream; a server that sends nothing this long
// is not taken for one.
const WAIT_MS = 3000;
const MAX_EVENT_BYTES = 4096;

/**
 * Whether `url` serves the HTTP+SSE transport of 2024-11-05, which Streamable HTTP replaced:
 * a GET opens an event stream whose first event, `endpoint`, names the URL to POST messages
 * to. Returns that URL (resolved against `url`), or undefined for anything else. The GET shows
 * on the wire; the stream is closed once read.
 */
export async function probeSseTransport(url: string): Promise<string | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), WAIT_MS);
  try {
    const response = await recordingFetch()(url, {
      method: "GET",
      headers: { Accept: "text/event-stream" },
      signal: controller.signal,
    });
    const type = response.headers.get("Content-Type") ?? "";
    if (!response.ok || !response.body || !type.startsWith("text/event-stream")) {
      void response.body?.cancel();
      return undefined;
    }
    for await (const event of decodeSse(response.body, {}, MAX_EVENT_BYTES)) {
      if (event.event !== "endpoint") return undefined;
      return new URL(event.data.trim(), url).href;
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
