// The cluster's front: one port, each request to the next Worker process in turn (round robin),
// as a load balancer in front of many isolates would. A response streams back as it comes, so
// an SSE stream stays on the process that opened it; a client that goes away closes the
// upstream request (which is how the Worker sees a closed stream and cancels its call).
import { Agent, createServer, request, type IncomingMessage, type Server } from "node:http";
import type { Socket } from "node:net";

/** Which Worker process served a response (1-based), for tests and for the curious. */
export const SERVED_BY = "X-Cluster-Worker";
/** Request bodies are read before forwarding, so a refused connection can try the next process. */
const MAX_BODY = 64 * 1024 * 1024;
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding"]);

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
  /** Tried the next process (refused: nothing sent), answered 502, or cut the client's answer. */
  outcome: "next process" | "502" | "cut";
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

export async function startFront(port: number, backends: (number | undefined)[]): Promise<Front> {
  const agent = new Agent({ keepAlive: true });
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
    // Try each process once, starting with the next in turn: a refused connection (a stopped
    // process) sent nothing, so trying the next one is safe.
    const tries = backends.length;
    const attempt = (left: number): void => {
      if (left === 0) {
        outgoing
          .writeHead(502, { "Content-Type": "text/plain" })
          .end("No Worker process answered\n");
        return;
      }
      const index = next++ % backends.length;
      const target = backends[index];
      if (target === undefined) return attempt(left - 1);
      const upstream = request(
        {
          host: "127.0.0.1",
          port: target,
          method: incoming.method,
          path: incoming.url,
          headers: { ...headers, "content-length": String(body.length) },
          agent,
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
        const outcome = outgoing.headersSent
          ? "cut"
          : error.code === "ECONNREFUSED"
            ? "next process"
            : "502";
        record(error, outcome);
        if (outcome === "cut") outgoing.destroy();
        else if (outcome === "next process") attempt(left - 1);
        else outgoing.writeHead(502, { "Content-Type": "text/plain" }).end("Bad gateway\n");
      });
      current = upstream;
      upstream.end(body);
    };
    attempt(tries);
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
