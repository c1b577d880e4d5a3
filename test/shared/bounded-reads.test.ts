import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { flood } from "../support/flood.ts";
import { OversizedBodyError, readBytesWithin, readTextWithin } from "../../shared/bounded-body.ts";
import { Probe } from "../../shared/check/probe.ts";
import { pageTokens, relayFetch, RelayRefused } from "../../shared/relay.ts";
import { readServerList } from "../../web/src/lib/server-list.ts";

const MiB = 1024 * 1024;
/** Kernel buffers hold a few MiB: a reader that stopped at its bound closed the socket well before this. */
const STOPPED_EARLY = 64 * MiB;

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A loopback server answering every request with `answer`; its base URL. */
async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  server = createServer((req, res) => {
    req.resume();
    answer(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A server whose every answer is an endless body of `type`; the bytes it got to send. */
async function flooding(type: string, headers: Record<string, string> = {}, head = "") {
  let sent: Promise<number> = Promise.resolve(0);
  const url = await serve((_req, res) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    sent = flood(res, type, head, "");
  });
  return { url, sent: () => sent };
}

describe("one bounded reader for every body read whole (readBytesWithin)", () => {
  it("reads a body under the bound whole, as bytes and as UTF-8 text", async () => {
    const text = "é".repeat(1000);
    const url = await serve((_req, res) => res.end(text));
    expect((await readBytesWithin(await fetch(url), 2000)).byteLength).toBe(2000);
    expect(await readTextWithin(await fetch(url), 2000)).toBe(text);
  });

  it("refuses a Content-Length past the bound before reading any of the body", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "Content-Length": String(10 * MiB) });
      res.write("x");
    });
    const failure = await readBytesWithin(await fetch(url), MiB).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OversizedBodyError);
    expect(failure).toMatchObject({
      limit: MiB,
      message: "The body is larger than 1048576 bytes.",
    });
  });

  it("stops an endless body one chunk past the bound and cancels the rest", async () => {
    const { url, sent } = await flooding("application/octet-stream");
    await expect(readBytesWithin(await fetch(url), MiB)).rejects.toBeInstanceOf(OversizedBodyError);
    expect(await sent()).toBeLessThan(STOPPED_EARLY);
  });
});

describe("the relay's own answers are read up to 64 KiB", () => {
  it("a refusal whose body does not end is refused with the bound named, unread", async () => {
    const { url, sent } = await flooding("application/json", { "Relay-Error": "host-not-listed" });
    const send = relayFetch({ relayUrl: `${url}/relay`, token: async () => "t" });
    const failure = await send("https://mcp.example.com/mcp", { method: "POST", body: "{}" }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RelayRefused);
    expect(failure).toMatchObject({
      status: 502,
      rule: "host-not-listed",
      message:
        "The relay's answer is larger than 65536 bytes (64 KiB), far more than a refusal or a token takes; the rest was not read.",
    });
    expect(await sent()).toBeLessThan(STOPPED_EARLY);
  });

  it("a page token answer that does not end is refused with the bound named, unread", async () => {
    const { url, sent } = await flooding("application/json", {}, '{"token":"');
    const tokens = pageTokens(`${url}/relay/token`, () => undefined);
    await expect(tokens(false)).rejects.toMatchObject({
      name: "RelayRefused",
      rule: "page-token",
      message: expect.stringContaining("larger than 65536 bytes (64 KiB)"),
    });
    expect(await sent()).toBeLessThan(STOPPED_EARLY);
  });
});

/** The checks' prober, sending to `url` with the global fetch. */
const probing = (url: string) =>
  new Probe({ url, fetch: (u, init) => fetch(u, init), headers: {}, timeoutMs: 60_000 });

describe("the checks read a reply up to 16 MiB", () => {
  it("a JSON reply that does not end is the exchange's problem, with the bound named", async () => {
    const { url, sent } = await flooding("application/json", {}, '{"jsonrpc":"2.0","id":1,"x":"');
    const probe = probing(url);
    const exchange = await probe.modern("ping");
    expect(exchange.status).toBe(200);
    expect(exchange.problem).toBe(
      "the reply is larger than 16777216 bytes (16 MiB), more than the checks read; the rest was not read",
    );
    expect(await sent()).toBeLessThan(STOPPED_EARLY);
  });

  it("an SSE event that does not end is the exchange's problem, with the bound named", async () => {
    const { url, sent } = await flooding("text/event-stream", {}, "event: message\ndata: ");
    const probe = probing(url);
    const exchange = await probe.modern("ping");
    expect(exchange.problem).toContain("larger than 16777216 bytes (16 MiB)");
    expect(await sent()).toBeLessThan(STOPPED_EARLY);
  });
});

describe("the playground reads the Worker's list of servers up to 1 MiB", () => {
  it("reads the endpoints and dev tokens of a list under the bound", async () => {
    const url = await serve((_req, res) =>
      res.end(
        JSON.stringify({
          endpoints: [{ path: "/mcp/a", name: "a" }, { path: 1 }],
          devTokens: [{ subject: "alice", token: "t" }],
        }),
      ),
    );
    expect(await readServerList(await fetch(url))).toEqual({
      endpoints: [{ path: "/mcp/a", name: "a" }],
      devTokens: [{ subject: "alice", token: "t" }],
    });
  });

  it("a list that does not end is refused with the bound named, unread", async () => {
    const { url, sent } = await flooding("application/json", {}, '{"endpoints":["');
    await expect(readServerList(await fetch(url))).rejects.toMatchObject({
      name: "ServerListTooLarge",
      message:
        "The Worker's list of servers (GET /api/servers) is larger than 1048576 bytes (1 MiB), more than a list of endpoints takes; it was not read.",
    });
    expect(await sent()).toBeLessThan(STOPPED_EARLY);
  });
});
