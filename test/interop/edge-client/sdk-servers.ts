import { randomUUID } from "node:crypto";
import { createMcpHandler, fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { McpServer as V1McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport as V1ServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { bodyOf, serveFetch, serveNode, type LoopbackServer } from "../support/http.ts";
import { registerCommonV2 } from "../support/sdk-v2-tools.ts";

/** What the test servers' handlers observed, for assertions on cancellation. */
export type Observed = { aborted: string[] };

export const README_URI = "file:///readme.txt";

// A raw JSON Schema through fromJsonSchema, the way SDK users declare x-mcp-header.
const HEADER_SCHEMA = {
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    n: { type: "integer", "x-mcp-header": "N" },
  },
  required: ["region"],
} as const;
const HeaderInput = fromJsonSchema(HEADER_SCHEMA);

function sdkV2Server(observed: Observed): McpServer {
  const server = new McpServer(
    { name: "sdk-v2-test", version: "2.4.0" },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: {},
        logging: {},
      },
    },
  );
  registerCommonV2(server, {
    requestState: "asked-once",
    onAbort: (label) => observed.aborted.push(label),
  });
  server.registerTool(
    "hdr",
    { description: "Mirrors Region and N", inputSchema: HeaderInput },
    (args) => ({
      content: [{ type: "text", text: JSON.stringify(args) }],
    }),
  );
  server.registerTool(
    "chatty",
    { description: "Logs twice", inputSchema: z.object({}) },
    async (_args, ctx) => {
      await ctx.mcpReq.log("info", "first");
      await ctx.mcpReq.log("debug", "second");
      return { content: [{ type: "text", text: "logged" }] };
    },
  );
  server.registerResource(
    "readme",
    README_URI,
    { mimeType: "text/plain", cacheHint: { ttlMs: 60_000, cacheScope: "public" } },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "hello" }] }),
  );
  return server;
}

/** A server built with @modelcontextprotocol/server 2.4.0 (createMcpHandler, 2026-07-28). */
export async function startSdkV2Server() {
  const observed: Observed = { aborted: [] };
  const handler = createMcpHandler(() => sdkV2Server(observed));
  const server = await serveFetch((request) => handler.fetch(request));
  return {
    url: `${server.origin}/mcp`,
    observed,
    notify: handler.notify,
    close: async () => {
      await server.close();
      await handler.close();
    },
  };
}

function sdkV1Server(observed: Observed): V1McpServer {
  const server = new V1McpServer(
    { name: "sdk-v1-test", version: "1.32.2" },
    { capabilities: { logging: {} } },
  );
  server.registerTool(
    "echo",
    { description: "Echoes text", inputSchema: { text: z.string() } },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  server.registerTool(
    "slow",
    {
      description: "Counts with progress until cancelled",
      inputSchema: { steps: z.number(), label: z.string() },
    },
    async ({ steps, label }, extra) => {
      const token = extra._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (extra.signal.aborted) {
          observed.aborted.push(label);
          return { content: [{ type: "text", text: "aborted" }] };
        }
        if (token !== undefined) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress: step, total: steps },
          });
        }
      }
      return { content: [{ type: "text", text: `counted to ${steps}` }] };
    },
  );
  server.registerTool(
    "chatty",
    { description: "Logs once", inputSchema: {} },
    async (_args, extra) => {
      await extra.sendNotification({
        method: "notifications/message",
        params: { level: "info", data: "hello from v1" },
      });
      return { content: [{ type: "text", text: "logged" }] };
    },
  );
  server.registerTool(
    "ask",
    { description: "Asks for a name", inputSchema: {} },
    async (_args, extra) => {
      const answer = await extra.sendRequest(
        {
          method: "elicitation/create",
          params: {
            message: "Your name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } } },
          },
        },
        ElicitResultSchema,
      );
      return {
        content: [{ type: "text", text: `hello ${String(answer.content?.name ?? answer.action)}` }],
      };
    },
  );
  server.registerTool(
    "announce",
    { description: "Announces a tool list change on the session's own stream", inputSchema: {} },
    () => {
      void server.sendToolListChanged();
      return { content: [{ type: "text", text: "announced" }] };
    },
  );
  server.registerResource("readme", README_URI, { mimeType: "text/plain" }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "hello" }],
  }));
  return server;
}

/**
 * A legacy server built with @modelcontextprotocol/sdk 1.32.2 with sessions on: one transport
 * and McpServer per session, found by the Mcp-Session-Id header.
 */
export async function startSdkV1Server(): Promise<
  LoopbackServer & {
    url: string;
    observed: Observed;
    sessions: Map<string, V1ServerTransport>;
    closedSessions: string[];
  }
> {
  const observed: Observed = { aborted: [] };
  const sessions = new Map<string, V1ServerTransport>();
  const closedSessions: string[] = [];
  const server = await serveNode(async (req, res) => {
    const header = req.headers["mcp-session-id"];
    const sessionId = typeof header === "string" ? header : undefined;
    const body =
      req.method === "POST" ? JSON.parse((await bodyOf(req)).toString("utf8")) : undefined;
    let transport = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (!transport && sessionId === undefined) {
      const fresh: V1ServerTransport = new V1ServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, fresh);
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
          closedSessions.push(id);
        },
      });
      await sdkV1Server(observed).connect(fresh);
      transport = fresh;
    }
    if (!transport) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Session not found");
      return;
    }
    await transport.handleRequest(req, res, body);
  });
  return { ...server, url: `${server.origin}/mcp`, observed, sessions, closedSessions };
}
