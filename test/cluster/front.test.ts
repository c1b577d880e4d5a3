// The front on loopback before plain Node servers standing in for Worker processes: what it does
// when an upstream connection fails, and how long it keeps idle ones.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.ts";
import { startFront, type Front } from "./front.ts";

type Seen = { socket: Socket; nth: number; body: string };
type Handler = (seen: Seen, request: IncomingMessage, response: ServerResponse) => void;

/** A Worker process stand-in: every request it read (with its number on its connection). */
async function upstream(handle: Handler) {
  const seen: Seen[] = [];
  const perSocket = new Map<Socket, number>();
  const closed: Socket[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const nth = (perSocket.get(request.socket) ?? 0) + 1;
      perSocket.set(request.socket, nth);
      const one = { socket: request.socket, nth, body: Buffer.concat(chunks).toString() };
      seen.push(one);
      handle(one, request, response);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on("connection", (socket: Socket) => socket.on("close", () => closed.push(socket)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { server, port, seen, closed, connections: () => perSocket.size };
}

const echo: Handler = ({ nth, body }, _request, response) =>
  response.writeHead(200, { "Content-Type": "text/plain" }).end(`${nth}:${body}`);
/** Closes the connection, unanswered, under a request that came on a connection used before. */
const closesReused =
  (then: () => void = () => {}): Handler =>
  (seen, request, response) => {
    if (seen.nth < 2) return echo(seen, request, response);
    then();
    seen.socket.destroy();
  };

const servers: Server[] = [];
let front: Front | undefined;
afterEach(async () => {
  await front?.close();
  front = undefined;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function frontOf(ports: number[], options: { idleMs?: number } = {}) {
  front = await startFront(0, ports, options);
  return `http://127.0.0.1:${front.port}`;
}
const post = (url: string, body: string) => fetch(url, { method: "POST", body });

describe("the cluster's front", () => {
  it("sends a request again, once and whole, on a new connection when the pooled one it went out on was closed under it with nothing answered", async () => {
    const worker = await upstream(closesReused());
    servers.push(worker.server);
    const url = await frontOf([worker.port]);
    expect(await (await post(url, "first")).text()).toBe("1:first");

    const again = await post(url, "second, written once");
    expect(again.status).toBe(200);
    // Answered as the first request on a new connection, with the body the client sent.
    expect(await again.text()).toBe("1:second, written once");
    expect(worker.seen.map(({ nth, body }) => `${nth}:${body}`)).toEqual([
      "1:first",
      "2:second, written once",
      "1:second, written once",
    ]);
    expect(front?.upstreamErrors).toEqual([
      expect.objectContaining({
        worker: 1,
        port: worker.port,
        method: "POST",
        code: "ECONNRESET",
        reused: true,
        outcome: "sent again",
      }),
    ]);
  });

  it("answers 502 and sends it to no other process when the process that closed the pooled connection is gone (it may have begun the request)", async () => {
    const dying = await upstream(
      closesReused(() => {
        dying.server.close();
      }),
    );
    const other = await upstream(echo);
    servers.push(dying.server, other.server);
    const url = await frontOf([dying.port, other.port]);
    // One request to each in turn, then the dying one's pooled connection is used again.
    expect(await (await post(url, "a")).text()).toBe("1:a");
    expect(await (await post(url, "b")).text()).toBe("1:b");
    const lost = await post(url, "c");
    expect(lost.status).toBe(502);
    expect(await lost.text()).toBe("Bad gateway\n");
    expect(other.seen.map(({ body }) => body)).toEqual(["b"]);
    expect(front?.upstreamErrors.map(({ outcome, code }) => `${outcome} ${code}`)).toEqual([
      "sent again ECONNRESET",
      "502 ECONNREFUSED",
    ]);
  });

  it("answers 502 without sending again when a new connection fails with nothing answered", async () => {
    const worker = await upstream(({ socket }) => socket.destroy());
    servers.push(worker.server);
    const url = await frontOf([worker.port]);
    const failed = await post(url, "once");
    expect(failed.status).toBe(502);
    expect(worker.seen).toHaveLength(1);
    expect(front?.upstreamErrors).toEqual([
      expect.objectContaining({ code: "ECONNRESET", reused: false, outcome: "502" }),
    ]);
  });

  it("never sends again a request whose answer had begun: the client's answer breaks off", async () => {
    const worker = await upstream((seen, request, response) => {
      if (seen.nth < 2) return echo(seen, request, response);
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.write("data: part\n\n", () => seen.socket.destroy());
    });
    servers.push(worker.server);
    const url = await frontOf([worker.port]);
    await (await post(url, "first")).text();
    const streaming = await post(url, "second");
    expect(streaming.status).toBe(200);
    await expect(streaming.text()).rejects.toThrow();
    expect(worker.seen).toHaveLength(2);
    expect(front?.upstreamErrors.map(({ outcome }) => outcome)).toEqual(["cut"]);
  });

  it("closes a pooled connection idle for its idle time, before the Worker process would", async () => {
    const worker = await upstream(echo);
    servers.push(worker.server);
    const url = await frontOf([worker.port], { idleMs: 200 });
    await (await post(url, "one")).text();
    expect(worker.closed).toEqual([]);
    await eventually(async () => (worker.closed.length === 1 ? true : undefined), {
      what: "the front to close its idle connection",
      timeoutMs: 10_000,
    });
    // The next request opens a new connection, and is answered.
    expect(await (await post(url, "two")).text()).toBe("1:two");
    expect(worker.connections()).toBe(2);
  });

  it("keeps a stream open through a silence longer than the idle time", async () => {
    const worker = await upstream((_seen, _request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.write("data: first\n\n");
      setTimeout(() => response.end("data: after a silence\n\n"), 1_000);
    });
    servers.push(worker.server);
    const url = await frontOf([worker.port], { idleMs: 100 });
    const stream = await post(url, "listen");
    expect(await stream.text()).toBe("data: first\n\ndata: after a silence\n\n");
    expect(front?.upstreamErrors).toEqual([]);
  });
});
