import { afterEach, describe, expect, it } from "vitest";
import { serveFetch, type LoopbackServer } from "../interop/support/http.ts";
import { eventually } from "../support/eventually.ts";
import { BridgeProcess } from "./bridge-process.ts";

let bridge: BridgeProcess | undefined;
let upstream: LoopbackServer | undefined;
afterEach(async () => {
  bridge?.kill();
  await upstream?.close();
  bridge = undefined;
  upstream = undefined;
});

const VERSION = "2025-11-25";
const SESSION = "session-1";

/** One SSE event carrying a log message, with an event id. */
function event(id: string, data: string): string {
  const message = {
    jsonrpc: "2.0",
    method: "notifications/message",
    params: { level: "info", data },
  };
  return `id: ${id}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** An SSE response with `events`, closed at once or held open until the client goes away. */
function stream(request: Request, events: string, hold: boolean): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(events));
      if (!hold) controller.close();
      else request.signal.addEventListener("abort", () => controller.close());
    },
  });
  return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
}

/**
 * A 2025 server with sessions whose GET stream goes through `gets` in turn: each answers one
 * GET (the last one every later GET). It records each GET's Last-Event-ID.
 */
async function legacyServer(gets: Array<(request: Request) => Response>) {
  const lastEventIds: Array<string | null> = [];
  upstream = await serveFetch(async (request) => {
    if (request.method === "GET") {
      lastEventIds.push(request.headers.get("Last-Event-ID"));
      const answer = gets[Math.min(lastEventIds.length, gets.length) - 1];
      return answer ? answer(request) : new Response(null, { status: 405 });
    }
    if (request.method === "DELETE") return new Response(null, { status: 200 });
    const message = (await request.json()) as { id?: number; method: string };
    if (message.method === "initialize") {
      const result = {
        protocolVersion: VERSION,
        capabilities: { logging: {} },
        serverInfo: { name: "legacy-stream", version: "1.0.0" },
      };
      return Response.json(
        { jsonrpc: "2.0", id: message.id, result },
        { headers: { "Mcp-Session-Id": SESSION } },
      );
    }
    if (message.id !== undefined)
      return Response.json({ jsonrpc: "2.0", id: message.id, result: {} });
    return new Response(null, { status: 202 });
  });
  return { url: upstream.origin, lastEventIds };
}

/** Starts the bridge and makes the 2025 handshake through it, which opens the GET stream. */
async function handshake(url: string): Promise<BridgeProcess> {
  bridge = new BridgeProcess([url]);
  bridge.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  await bridge.answer(1);
  bridge.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return bridge;
}

/** Waits longer than the bridge would pause before opening a stream again (0.5 s, then 1 s). */
const pastTheNextPause = () => new Promise((resolve) => setTimeout(resolve, 1500));

const logged = (host: BridgeProcess, data: string) =>
  host.next(
    (line) => line.method === "notifications/message" && JSON.stringify(line).includes(data),
  );

describe("edgemcp stdio keeps a 2025 server's own stream open", () => {
  it("opens the stream again when it drops, after a failed attempt, resuming from the last event id", async () => {
    const server = await legacyServer([
      (request) => stream(request, event("1", "first"), false),
      () => new Response("busy", { status: 503 }),
      (request) => stream(request, event("2", "second"), true),
    ]);
    const host = await handshake(server.url);
    await logged(host, "first");
    await logged(host, "second");
    expect(server.lastEventIds).toEqual([null, "1", "1"]);
    const stderr = host.stderr.join("");
    expect(stderr).toContain("The server's stream ended (the server closed it); opening it again");
    expect(stderr).toContain("The server's stream ended (HTTP 503); opening it again");
    expect(stderr).toContain("The server's stream is open again.");
    // Every message arrives once: the resumed stream does not repeat the first.
    expect(host.lines.filter((line) => line.method === "notifications/message")).toHaveLength(2);
  });

  it("stops when the session has expired (HTTP 404), saying so", async () => {
    const server = await legacyServer([
      (request) => stream(request, event("1", "only"), false),
      () => new Response(null, { status: 404 }),
    ]);
    const host = await handshake(server.url);
    await logged(host, "only");
    await eventually(
      async () => host.stderr.join("").includes("the session has expired (HTTP 404)") || undefined,
    );
    expect(server.lastEventIds).toHaveLength(2);
    // The bridge still serves the host, and asks for no stream again.
    host.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    await host.answer(2);
    await pastTheNextPause();
    expect(server.lastEventIds).toHaveLength(2);
  });

  it("logs an event that is not JSON, skips it and relays the ones after it", async () => {
    const notJson = "id: 1\nevent: message\ndata: {not json\n\n";
    const server = await legacyServer([
      (request) => stream(request, notJson + event("2", "after"), true),
    ]);
    const host = await handshake(server.url);
    await logged(host, "after");
    await eventually(
      async () =>
        host.stderr
          .join("")
          .includes("The server's stream sent an event that is not JSON: {not json") || undefined,
    );
    expect(host.lines.filter((line) => line.method === "notifications/message")).toHaveLength(1);
    // The stream stays open: a bad event is not a reason to open it again.
    expect(server.lastEventIds).toEqual([null]);
  });

  it("does not open a stream the server does not offer (HTTP 405)", async () => {
    const server = await legacyServer([]);
    const host = await handshake(server.url);
    await eventually(async () => (server.lastEventIds.length === 1 ? true : undefined));
    host.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    await host.answer(2);
    await pastTheNextPause();
    expect(server.lastEventIds).toHaveLength(1);
    expect(host.stderr.join("")).not.toContain("stream ended");
  });
});
