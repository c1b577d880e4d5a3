import { describe, expect, it } from "vitest";
import { Connection } from "../../../shared/client/connection.ts";
import { McpError } from "../../../shared/client/errors.ts";
import type { InProcessReply, SendLike, WireEvent } from "../../../shared/client/options.ts";
import { readReply } from "../../../shared/client/read-reply.ts";
import { deliver } from "../../../shared/client/transport.ts";
import { ServerMessageSchema, type JsonObject } from "../../../shared/protocol/messages.ts";

const context = { era: "modern" as const, method: "tools/call" };
const RESULT = { jsonrpc: "2.0", id: 1, result: { content: [] } };
const ERROR = { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "bad" } };

/** What reading a reply gave: its result, or the error's fields. */
async function read(reply: Response | InProcessReply, id: string | number = 1): Promise<unknown> {
  try {
    return await readReply(reply, { id }, context);
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    const { kind, code, status, message, data } = error;
    return { kind, code, status, message, data };
  }
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });

describe("a reply handed over as a value", () => {
  it("reads as the same reply over HTTP: an object, its text, an error, a refusal", async () => {
    const cases: [InProcessReply, Response][] = [
      [{ status: 200, message: RESULT }, json(RESULT)],
      [{ status: 200, message: JSON.stringify(RESULT) }, json(RESULT)],
      [{ status: 200, message: ERROR }, json(ERROR)],
      [{ status: 200, message: { ...RESULT, id: 2 } }, json({ ...RESULT, id: 2 })],
      [{ status: 200, message: { nonsense: true } }, json({ nonsense: true })],
      [{ status: 401, message: ERROR }, json(ERROR, 401)],
      [{ status: 429, message: ERROR, headers: { "Retry-After": "1" } }, json(ERROR, 429)],
    ];
    for (const [handed, response] of cases)
      expect(await read(handed)).toEqual(await read(response));
  });
});

describe("reading a reply's message", () => {
  it("takes what the protocol's schema takes, and refuses what it refuses", async () => {
    const cases: unknown[] = [
      RESULT,
      { jsonrpc: "2.0", id: "a", result: {} },
      { jsonrpc: "2.0", id: 1, result: Object.create(null) },
      { jsonrpc: "2.0", id: 1, result: { content: [] }, extra: true },
      { jsonrpc: "2.0", id: 1, result: { content: [] }, error: ERROR.error },
      { jsonrpc: "2.0", id: Number.NaN, result: {} },
      { jsonrpc: "2.0", id: Number.POSITIVE_INFINITY, result: {} },
      { jsonrpc: "2.0", id: null, result: {} },
      { jsonrpc: "2.0", id: 1, result: [] },
      { jsonrpc: "2.0", id: 1, result: null },
      { jsonrpc: "2.0", id: 1, result: new Date(0) },
      { jsonrpc: "1.0", id: 1, result: {} },
      { id: 1, result: {}, other: 1 },
    ];
    for (const message of cases) {
      const parsed = ServerMessageSchema.safeParse(message);
      const id = (message as { id?: unknown }).id === "a" ? "a" : 1;
      const got = await read({ status: 200, message: message as JsonObject }, id);
      if (parsed.success && "result" in parsed.data) expect(got).toEqual(parsed.data.result);
      else expect(got).toMatchObject({ kind: parsed.success ? expect.any(String) : "protocol" });
    }
  });
});

describe("a connection with send", () => {
  const connection = (send: SendLike, events: WireEvent[]) =>
    new Connection({
      url: "https://up.in-process/",
      fetch: () => Promise.reject(new Error("fetch is not used for requests")),
      send,
      headers: {},
      clientInfo: { name: "test", version: "1" },
      capabilities: {},
      handlers: {},
      onWire: (event) => events.push(event),
    });

  it("hands it the request and shows both on the wire", async () => {
    const events: WireEvent[] = [];
    const sent: unknown[] = [];
    const conn = connection(async (message) => {
      sent.push(message);
      return { status: 200, message: RESULT, headers: { "X-Seen": "yes" } };
    }, events);
    const headers = new Headers({ "Content-Type": "application/json" });
    const reply = await deliver(conn, RESULT, headers, new AbortController().signal, context);
    expect(reply).toMatchObject({ status: 200, message: RESULT });
    expect(sent).toEqual([RESULT]);
    expect(events.map((e) => e.type)).toEqual(["request", "response"]);
    const response = events[1];
    expect(response?.type === "response" && response.headers.get("X-Seen")).toBe("yes");
  });

  it("fails as a fetch would when send throws, or as aborted when the signal fired", async () => {
    const conn = connection(() => Promise.reject(new Error("down")), []);
    const headers = new Headers();
    await expect(
      deliver(conn, RESULT, headers, new AbortController().signal, context),
    ).rejects.toMatchObject({ kind: "network" });
    const aborted = new AbortController();
    aborted.abort();
    await expect(deliver(conn, RESULT, headers, aborted.signal, context)).rejects.toMatchObject({
      kind: "aborted",
    });
  });
});
