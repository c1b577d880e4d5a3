import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Small servers on 127.0.0.1 that a relay meets on the internet, none sending CORS headers:
 * one that echoes what reached it, one that refuses foreign origins with 403 (as MCP 2026-07-28
 * asks servers to), SSE that comes slowly or never ends, answers that never come, are huge or
 * malformed, and a redirect to a metadata address.
 */
export type RelayTargets = { origin: string; close(): Promise<void> };

const MB = 1024 * 1024;
// Held SSE streams, released by GET /release?id=…: lets a test see one event arrive before the
// next is even sent, without timing anything.
const held = new Map<string, () => void>();

function sseHead(res: ServerResponse): void {
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  res.flushHeaders();
}

function event(res: ServerResponse, data: unknown): void {
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const routes: Record<string, (req: IncomingMessage, res: ServerResponse, url: URL) => unknown> = {
  "/echo": async (req, res) => {
    const body = await readBody(req);
    res.writeHead(200, {
      "Content-Type": "application/json",
      "Mcp-Session-Id": "session-1",
      "Set-Cookie": "target=1",
      "X-Internal-Detail": "kept here",
    });
    res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
  },
  "/origin-guard": (req, res) => {
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== "https://allowed.example") {
      res.writeHead(403, { "Content-Type": "text/plain" });
      return res.end(`Origin ${origin} is not allowed.`);
    }
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
  },
  "/held-sse": (_req, res, url) => {
    sseHead(res);
    event(res, { n: 1 });
    held.set(url.searchParams.get("id") ?? "", () => {
      event(res, { n: 2 });
      res.end();
    });
  },
  "/release": (_req, res, url) => {
    held.get(url.searchParams.get("id") ?? "")?.();
    res.end("ok");
  },
  "/slow-sse": (_req, res) => {
    sseHead(res);
    let n = 0;
    const timer = setInterval(() => {
      event(res, { n: ++n });
      if (n === 3) {
        clearInterval(timer);
        res.end();
      }
    }, 200);
    res.on("close", () => clearInterval(timer));
  },
  "/forever-sse": (_req, res) => {
    sseHead(res);
    const timer = setInterval(() => event(res, { tick: Date.now() }), 50);
    res.on("close", () => clearInterval(timer));
  },
  "/quiet-sse": (_req, res) => {
    sseHead(res);
    event(res, { n: 1 });
  },
  "/never": () => {},
  "/huge": (_req, res) => {
    res.writeHead(200, { "Content-Type": "application/octet-stream" });
    const chunk = Buffer.alloc(64 * 1024, 120);
    let sent = 0;
    const pump = () => {
      while (sent < 100 * MB) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  },
  "/huge-declared": (_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(100 * MB) });
    res.write("[");
  },
  "/malformed-chunked": (req) => {
    req.socket.write(
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
        '5\r\n{"a":\r\nzz-not-hex\r\nmore\r\n',
    );
    setTimeout(() => req.socket.destroy(), 50);
  },
  "/redirect-private": (_req, res) => {
    res.writeHead(302, { Location: "http://169.254.169.254/latest/meta-data/" });
    res.end();
  },
  "/redirect-relative": (_req, res) => {
    res.writeHead(307, { Location: "/echo" });
    res.end();
  },
};

/** Starts the servers above on one free loopback port. */
export async function startRelayTargets(): Promise<RelayTargets> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const route = routes[url.pathname];
    if (!route) {
      res.writeHead(404);
      return res.end();
    }
    Promise.resolve(route(req, res, url)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
