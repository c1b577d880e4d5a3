import { randomUUID } from "node:crypto";
import {
  InMemoryTaskMessageQueue,
  InMemoryTaskStore,
} from "@modelcontextprotocol/sdk/experimental/tasks";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  ElicitResultSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { bodyOf, serveNode, type LoopbackServer } from "../support/http.ts";

/** The resource the stream tools announce updates of. */
export const MEMO_URI = "memo://one";

const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** What the server's task tools saw: the tasks they started, the answers they were given. */
export type TaskLog = { created: string[]; answers: string[] };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Request options that send a request on a task's queue (delivered with `tasks/result`), as
 * server-everything does: the SDK's types leave `relatedTask` out of a handler's options.
 */
function relatedTo(taskId: string) {
  const options = { timeout: 30_000, relatedTask: { taskId } };
  return options;
}

/** Task tools of the official SDK (1.32.2), run on its in-memory task store. */
function registerTaskTools(server: McpServer, log: TaskLog): void {
  server.experimental.tasks.registerToolTask(
    "research",
    {
      description: "Researches a topic in stages, as a task only",
      inputSchema: { topic: z.string(), ask: z.boolean().optional() },
      execution: { taskSupport: "required" },
    },
    {
      createTask: async ({ topic, ask }, extra) => {
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 });
        log.created.push(task.taskId);
        void (async () => {
          for (const stage of ["Gathering", "Writing"]) {
            await extra.taskStore.updateTaskStatus(task.taskId, "working", `${stage}...`);
            await sleep(120);
          }
          let angle = "general";
          if (ask) {
            await extra.taskStore.updateTaskStatus(task.taskId, "input_required", "Which angle?");
            const answer = await extra.sendRequest(
              {
                method: "elicitation/create",
                params: {
                  message: "Which angle?",
                  requestedSchema: { type: "object", properties: { angle: { type: "string" } } },
                },
              },
              ElicitResultSchema,
              relatedTo(task.taskId),
            );
            angle = String(answer.content?.angle ?? answer.action);
            log.answers.push(angle);
            await extra.taskStore.updateTaskStatus(task.taskId, "working", "Finishing...");
          }
          await extra.taskStore.storeTaskResult(task.taskId, "completed", {
            content: [{ type: "text", text: `report on ${topic} (${angle})` }],
          });
          // A cancelled task refuses its result: nothing more to do.
        })().catch(() => {});
        return { task };
      },
      getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => {
        const result = await extra.taskStore.getTaskResult(extra.taskId);
        return { content: [], ...result };
      },
    },
  );
  server.experimental.tasks.registerToolTask(
    "tally",
    {
      description: "Counts, as a task when asked",
      inputSchema: { n: z.number() },
      execution: { taskSupport: "optional" },
    },
    {
      createTask: async ({ n }, extra) => {
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 });
        log.created.push(task.taskId);
        void sleep(100)
          .then(() =>
            extra.taskStore.storeTaskResult(task.taskId, "completed", {
              content: [{ type: "text", text: `counted ${n} as a task` }],
            }),
          )
          .catch(() => {});
        return { task };
      },
      getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => {
        const result = await extra.taskStore.getTaskResult(extra.taskId);
        return { content: [], ...result };
      },
    },
  );
  server.registerTool(
    "plain",
    { description: "Answers at once; never a task", inputSchema: {} },
    () => ({ content: [{ type: "text", text: "plain answer" }] }),
  );
}

/** What a session's background stream is tested with: its transport, and who subscribed. */
type StreamSide = { transport: () => StreamableHTTPServerTransport; subscribed: string[] };

/**
 * Tools whose effects arrive outside their own call, so on the session's GET stream: a
 * roots/list request, a log message, a resource update; and one that drops the stream.
 */
function registerStreamTools(server: McpServer, side: StreamSide): void {
  server.registerTool("ask-roots", { inputSchema: {} }, async () => {
    const { roots } = await server.server.listRoots();
    return { content: [{ type: "text", text: roots.map((root) => root.uri).join(",") }] };
  });
  server.registerTool("log-later", { inputSchema: { text: z.string() } }, ({ text }, extra) => {
    void sleep(30).then(() =>
      server.sendLoggingMessage({ level: "warning", data: text }, extra.sessionId),
    );
    return { content: [{ type: "text", text: "scheduled" }] };
  });
  server.registerTool("touch", { inputSchema: {} }, () => {
    if (side.subscribed.includes(MEMO_URI))
      void sleep(30).then(() => server.server.sendResourceUpdated({ uri: MEMO_URI }));
    return { content: [{ type: "text", text: "touched" }] };
  });
  server.registerTool("drop-stream", { inputSchema: {} }, () => {
    side.transport().closeStandaloneSSEStream();
    return { content: [{ type: "text", text: "dropped" }] };
  });
  server.registerResource("memo", MEMO_URI, { mimeType: "text/plain" }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "memo" }],
  }));
  server.server.setRequestHandler(SubscribeRequestSchema, ({ params }) => {
    side.subscribed.push(params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, ({ params }) => {
    side.subscribed.splice(side.subscribed.indexOf(params.uri) >>> 0, 1);
    return {};
  });
}

function legacySessionServer(log: TaskLog, side: StreamSide): McpServer {
  const server = new McpServer(
    { name: "legacy-session-test", version: "1.32.2" },
    {
      capabilities: {
        tools: {},
        logging: {},
        resources: { subscribe: true },
        tasks: TASKS_CAPABILITY,
      },
      taskStore: new InMemoryTaskStore(),
      taskMessageQueue: new InMemoryTaskMessageQueue(),
    },
  );
  registerTaskTools(server, log);
  registerStreamTools(server, side);
  return server;
}

/**
 * A 2025-11-25 server built with the official SDK (1.32.2), sessions on, with task tools:
 * `research` (task required; with `ask`, it asks for input while running), `tally` (task
 * optional) and `plain` (no task); and the stream tools above. It records every request's HTTP
 * and JSON-RPC method, and each GET's headers.
 */
export async function startLegacySessionServer(): Promise<
  LoopbackServer & {
    url: string;
    log: TaskLog;
    requests: string[];
    streamHeaders: Record<string, string | string[] | undefined>[];
    subscribed: string[];
  }
> {
  const log: TaskLog = { created: [], answers: [] };
  const subscribed: string[] = [];
  const streamHeaders: Record<string, string | string[] | undefined>[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const requests: string[] = [];
  const server = await serveNode(async (req, res) => {
    const header = req.headers["mcp-session-id"];
    const sessionId = typeof header === "string" ? header : undefined;
    const body =
      req.method === "POST" ? JSON.parse((await bodyOf(req)).toString("utf8")) : undefined;
    requests.push(`${req.method} ${typeof body?.method === "string" ? body.method : ""}`.trim());
    if (req.method === "GET") streamHeaders.push({ ...req.headers });
    let transport = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (!transport && sessionId === undefined) {
      const fresh: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, fresh);
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      });
      await legacySessionServer(log, { transport: () => fresh, subscribed }).connect(fresh);
      transport = fresh;
    }
    if (!transport) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Session not found");
      return;
    }
    await transport.handleRequest(req, res, body);
  });
  return { ...server, url: `${server.origin}/mcp`, log, requests, streamHeaders, subscribed };
}
