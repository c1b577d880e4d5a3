// The cluster's front: one port, each request to the next Worker process in turn (round robin),
// as a load balancer in front of many isolates would. A response streams back as it comes, so
// an SSE stream stays on the process that opened it; a client that goes away closes the
// upstream request (which is how the Worker sees a closed stream and cancels its call).
import { Agent, createServer, request, type IncomingMessage, type Server } from "node:http";
import type { Socket } from "node:net";

/** Which Worker process served a response (1-based), for tests and for the curious. */
export const SERVED_BY = "X-Cluster-Worker";
/** Request bodies are read whole before forwarding, so a request can be sent again intact. */
const MAX_BODY = 64 * 1024 * 1024;
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding"]);
/**
 * How long a pooled connection to a Worker process stays idle before the front closes it.
 * workerd closes an idle keep-alive connection after 15 s (and announces no Keep-Alive timeout);
 * a request written to a connection at the moment workerd closes it fails with nothing
 * answered. Closing ours well before workerd's keeps that race out of reach even when a busy
 * machine delays the front's timers by seconds, and at any real load a connection is reused
 * long before it has been idle this long.
 */
const IDLE_MS = 4_000;
/** How a connection the server had closed fails: reset, or ended with no answer (hang up). */
const CLOSED_UNDER_US = new Set(["ECONNRESET", "EPIPE"]);
/** How many upstream errors the front keeps (the latest). */
const KEPT_ERRORS = 1_000;

/** A request the front sent to a Worker process that failed at the socket, and what it did then. */
export type UpstreamError = {
  /** When the error came (ms since the epoch). */
  at: number;
  /** The Worker process (1-based) and the port it was sent to. */
  worker: number;
  port: number;
  method: string;
  path: string;
  /** The socket error's code: ECONNRESET also stands for "socket hang up", an end with no answer. */
  code: string;
  /** Whether it went out on a pooled connection, and how long that connection had been idle. */
  reused: boolean;
  idleMs?: number;
  /**
   * Tried the next process (refused: nothing was sent), sent again to the same process on a new
   * connection (a pooled one it had closed), answered 502, or cut the client's answer.
   */
  outcome: "next process" | "sent again" | "502" | "cut";
};

export type Front = {
  server: Server;
  port: number;
  /** The Worker processes' ports, in order; `undefined` for one that is stopped. */
  backends: (number | undefined)[];
  /** The latest upstream errors, oldest first. */
  upstreamErrors: UpstreamError[];
  close(): Promise<void>;
};

export type FrontOptions = {
  /** How long a pooled upstream connection may stay idle (default IDLE_MS). */
  idleMs?: number;
};

async function readBody(incoming: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function startFront(
  port: number,
  backends: (number | undefined)[],
  options: FrontOptions = {},
): Promise<Front> {
  // The agent's timeout closes free connections only; one carrying a quiet stream is left open.
  const agent = new Agent({ keepAlive: true, timeout: options.idleMs ?? IDLE_MS });
  const upstreamErrors: UpstreamError[] = [];
  /** When each pooled connection last went idle. */
  const freedAt = new WeakMap<Socket, number>();
  agent.on("free", (socket: Socket) => freedAt.set(socket, Date.now()));
  let next = 0;
  const server = createServer(async (incoming, outgoing) => {
    const body = await readBody(incoming).catch(() => undefined);
    if (body === undefined) {
      outgoing.writeHead(413, { "Content-Type": "text/plain" }).end("Request body too large\n");
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(incoming.headers).filter(([name]) => !HOP_BY_HOP.has(name)),
    );
    let current: ReturnType<typeof request> | undefined;
    let clientGone = false;
    // The client went away before the answer ended: so does the upstream request.
    outgoing.on("close", () => {
      if (outgoing.writableFinished) return;
      clientGone = true;
      current?.destroy();
    });
    const badGateway = (text: string) =>
      outgoing.writeHead(502, { "Content-Type": "text/plain" }).end(text);

    /** Sends the request to process `index`, on a pooled connection or (`fresh`) a new one. */
    const forward = (index: number, target: number, left: number, fresh: boolean): void => {
      const upstream = request(
        {
          host: "127.0.0.1",
          port: target,
          method: incoming.method,
          path: incoming.url,
          headers: { ...headers, "content-length": String(body.length) },
          agent: fresh ? false : agent,
        },
        (answer) => {
          const answerHeaders = Object.fromEntries(
            Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)),
          );
          outgoing.writeHead(answer.statusCode ?? 502, {
            ...answerHeaders,
            [SERVED_BY]: String(index + 1),
          });
          outgoing.flushHeaders();
          answer.on("data", (chunk: Buffer) => outgoing.write(chunk));
          answer.on("end", () => outgoing.end());
          // The process died mid-answer: end the client's connection abruptly, as the edge
          // would (the client sees a broken stream, not a complete-looking one).
          answer.on("error", (error: NodeJS.ErrnoException) => {
            if (!clientGone) record(error, "cut");
            outgoing.destroy();
          });
          answer.on("aborted", () => outgoing.destroy());
        },
      );
      let idleMs: number | undefined;
      upstream.on("socket", (socket: Socket) => {
        const freed = freedAt.get(socket);
        if (upstream.reusedSocket && freed !== undefined) idleMs = Date.now() - freed;
      });
      const record = (error: NodeJS.ErrnoException, outcome: UpstreamError["outcome"]) => {
        upstreamErrors.push({
          at: Date.now(),
          worker: index + 1,
          port: target,
          method: incoming.method ?? "",
          path: incoming.url ?? "",
          code: error.code ?? error.message,
          reused: upstream.reusedSocket,
          ...(idleMs === undefined ? {} : { idleMs }),
          outcome,
        });
        if (upstreamErrors.length > KEPT_ERRORS) upstreamErrors.shift();
      };
      upstream.on("error", (error: NodeJS.ErrnoException) => {
        // The client went away and we ended the request: not the upstream's error.
        if (clientGone) return;
        // A refused first try sent nothing: the next process may have it. A pooled connection
        // that failed with nothing answered is one the process closed as the request went out
        // (its idle close): sent again once, to the same process on a new connection. Should
        // that be refused, the process is gone and may have begun the request before it went:
        // 502, not another process, so nothing runs twice.
        const outcome = outgoing.headersSent
          ? "cut"
          : fresh
            ? "502"
            : error.code === "ECONNREFUSED"
              ? "next process"
              : upstream.reusedSocket && CLOSED_UNDER_US.has(error.code ?? "")
                ? "sent again"
                : "502";
        record(error, outcome);
        if (outcome === "cut") outgoing.destroy();
        else if (outcome === "next process") attempt(left - 1);
        else if (outcome === "sent again") forward(index, target, left, true);
        else badGateway("Bad gateway\n");
      });
      current = upstream;
      upstream.end(body);
    };

    // Try each process once, starting with the next in turn: a refused connection (a stopped
    // process) sent nothing, so trying the next one is safe.
    const attempt = (left: number): void => {
      if (left === 0) return void badGateway("No Worker process answered\n");
      const index = next++ % backends.length;
      const target = backends[index];
      if (target === undefined) return attempt(left - 1);
      forward(index, target, left, false);
    };
    attempt(backends.length);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  return {
    server,
    port: typeof address === "object" && address ? address.port : port,
    backends,
    upstreamErrors,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
