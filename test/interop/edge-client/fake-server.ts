import type { ServerResponse } from "node:http";
import * as z from "zod";
import { bodyOf, serveNode } from "../support/http.ts";

const MessageSchema = z.looseObject({
  method: z.string().optional(),
  id: z.union([z.string(), z.number()]).optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});

/** One POST the fake server received. */
export type FakeCall = {
  method: string;
  id: string | number | undefined;
  params: Record<string, unknown>;
  headers: Headers;
  at: number;
};

/** An SSE response the test writes frame by frame. */
export class FakeStream {
  /** Resolves when the client closes the stream (or the test ends it). */
  readonly closed: Promise<void>;

  constructor(
    private readonly res: ServerResponse,
    private readonly id: string | number | undefined,
  ) {
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
    res.flushHeaders();
    this.closed = new Promise((resolve) => res.on("close", () => resolve()));
  }

  send(message: unknown): void {
    if (!this.res.writableEnded)
      this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  notify(method: string, params: Record<string, unknown> = {}): void {
    this.send({ jsonrpc: "2.0", method, params });
  }

  result(result: Record<string, unknown>): void {
    this.send({ jsonrpc: "2.0", id: this.id, result });
  }

  comment(text: string): void {
    if (!this.res.writableEnded) this.res.write(`: ${text}\n\n`);
  }

  end(): void {
    this.res.end();
  }
}

/** How the fake server answers one call. */
export class FakeReply {
  constructor(
    /** The raw response, for bodies the helpers do not write (endless ones). */
    readonly res: ServerResponse,
    private readonly call: FakeCall,
  ) {}

  json(body: unknown, status = 200): void {
    this.res.writeHead(status, { "Content-Type": "application/json" });
    this.res.end(JSON.stringify(body));
  }

  result(result: Record<string, unknown>, status = 200): void {
    this.json({ jsonrpc: "2.0", id: this.call.id, result }, status);
  }

  error(code: number, message: string, options: { status?: number; data?: unknown } = {}): void {
    const error = { code, message, ...(options.data === undefined ? {} : { data: options.data }) };
    this.json({ jsonrpc: "2.0", id: this.call.id, error }, options.status ?? 200);
  }

  text(status: number, text: string): void {
    this.raw(status, "text/plain", text);
  }

  /** A body sent exactly as given, under any content type (for malformed replies). */
  raw(status: number, contentType: string, body: string): void {
    this.res.writeHead(status, { "Content-Type": contentType });
    this.res.end(body);
  }

  stream(): FakeStream {
    return new FakeStream(this.res, this.call.id);
  }
}

export type FakeRoute = (call: FakeCall, reply: FakeReply) => void | Promise<void>;

/** A hand-written MCP server on loopback: routes by JSON-RPC method, records every call. */
export type FakeServer = {
  url: string;
  calls: FakeCall[];
  callsOf: (method: string) => FakeCall[];
  close: () => Promise<void>;
};

export const FAKE_SERVER_INFO = { name: "fake-2026", version: "1.0.0" };

/** A 2026 `server/discover` result. */
export function discoverResult(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    resultType: "complete",
    supportedVersions: ["2026-07-28"],
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    },
    ttlMs: 0,
    cacheScope: "public",
    _meta: { "io.modelcontextprotocol/serverInfo": FAKE_SERVER_INFO },
    ...extra,
  };
}

/**
 * Starts a fake server. `server/discover` answers a plain 2026 result unless routed otherwise;
 * notifications get 202; other unrouted methods get 404 and -32601.
 */
export async function startFakeServer(routes: Record<string, FakeRoute>): Promise<FakeServer> {
  const calls: FakeCall[] = [];
  const server = await serveNode(async (req, res) => {
    const text = (await bodyOf(req)).toString("utf8");
    const message = MessageSchema.parse(text === "" ? {} : JSON.parse(text));
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
    }
    const call: FakeCall = {
      method: message.method ?? `(${req.method ?? "?"})`,
      id: message.id,
      params: message.params ?? {},
      headers,
      at: Date.now(),
    };
    calls.push(call);
    const reply = new FakeReply(res, call);
    const route = routes[call.method];
    if (route) return route(call, reply);
    if (call.method === "server/discover") return reply.result(discoverResult());
    if (call.id === undefined) {
      res.writeHead(202);
      return res.end();
    }
    reply.error(-32601, `Method not found: ${call.method}`, { status: 404 });
  });
  return {
    url: `${server.origin}/mcp`,
    calls,
    callsOf: (method) => calls.filter((call) => call.method === method),
    close: server.close,
  };
}
