import { describe, expect, it } from "vitest";
import { durableObjects } from "../../../../worker/durable/index.ts";
import {
  DefinitionError,
  defineServer,
  listenStreams,
  resource,
  storedTasks,
  tool,
  type ServerDefinition,
} from "../../../../worker/mcp/index.ts";
import { legacyRequest, mcpRequest } from "../../../support/mcp-request.ts";
import { serve } from "../../custom-server.ts";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

const plain = tool({ name: "plain", description: "Answers at once", run: () => "done" });

/** A server given every port (task store, listen hub), and `extra` in its definition. */
function served(extra: Partial<ServerDefinition> = {}) {
  return serve(
    defineServer({
      name: "features",
      version: "1",
      tools: [plain],
      resources: [resource({ uri: "test://r", name: "r", read: () => "r" })],
      ...extra,
    }),
    { durable: (e) => durableObjects({ tasks: e.MCP_TASKS, bus: e.MCP_BUS }) },
  );
}

/** A 2026 request; a task method names its task in `Mcp-Name`, as the transport requires. */
const request = (method: string, params: Record<string, unknown> = {}) =>
  mcpRequest(method, params, {
    capabilities: TASKS,
    server: "features",
    ...(typeof params.taskId === "string" ? { headers: { "Mcp-Name": params.taskId } } : {}),
  });

const discover = async (server: ReturnType<typeof served>) =>
  (await server.send(request("server/discover"), "server/discover")).final?.result.capabilities;

describe("a server that names neither tasks nor listen streams", () => {
  it("has no tasks methods, though its handler has a task store (-32601)", async () => {
    const server = served();
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const reply = await server.send(
        request(method, { taskId: "t-1", inputResponses: {} }),
        method,
      );
      expect(reply.status).toBe(404);
      expect(reply.final?.error).toEqual({
        code: -32601,
        message: `Method not found: "${method}".`,
        data: { method },
      });
    }
  });

  it("has no subscriptions/listen, though its handler has a listen hub (-32601)", async () => {
    const server = served();
    const reply = await server.send(
      request("subscriptions/listen", { notifications: { toolsListChanged: true } }),
      "subscriptions/listen",
    );
    expect(reply.status).toBe(404);
    expect(reply.final?.error.code).toBe(-32601);
  });

  it("advertises neither", async () => {
    const capabilities = await discover(served());
    expect(capabilities).toEqual({ tools: {}, resources: {} });
  });

  it("answers a tool call from a client that declared tasks inline: the server decides", async () => {
    const server = served();
    const reply = await server.send(
      request("tools/call", { name: "plain", arguments: {} }),
      "tools/call",
    );
    expect(reply.final?.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "done" }],
    });
  });

  it("answers a 2025 client's task-augmented call inline", async () => {
    const server = served();
    const reply = await server.send(
      legacyRequest(
        "tools/call",
        { name: "plain", arguments: {}, task: { ttl: 60_000 } },
        { server: "features" },
      ),
      "tools/call",
      "2025",
    );
    expect(reply.final?.result.content).toEqual([{ type: "text", text: "done" }]);
  });

  it("is refused at definition when a tool may run as a task", () => {
    const define = () =>
      defineServer({
        name: "taskful",
        version: "1",
        tools: [tool({ name: "job", task: { mode: "optional" }, run: () => "" })],
      });
    expect(define).toThrow(DefinitionError);
    expect(define).toThrow('import { storedTasks } from "edgemcp/server"');
  });
});

describe("a server that names them", () => {
  const job = tool({ name: "job", task: { mode: "optional" }, run: () => "done" });

  it("advertises and serves tasks and listen streams", async () => {
    const server = served({ tools: [plain, job], tasks: storedTasks, listen: listenStreams });
    expect(await discover(server)).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      extensions: TASKS.extensions,
    });
    const reply = await server.send(request("tasks/get", { taskId: "unknown" }), "tasks/get");
    expect(reply.final?.error.code).toBe(-32602);
  });

  it("does not offer tasks without a tool that may run as one", async () => {
    const server = served({ tasks: storedTasks });
    expect((await discover(server)).extensions).toBeUndefined();
    const reply = await server.send(request("tasks/get", { taskId: "t" }), "tasks/get");
    expect(reply.final?.error.code).toBe(-32601);
  });

  it("does not offer listen streams to 2025 clients", async () => {
    const server = served({ listen: listenStreams });
    const reply = await server.send(
      legacyRequest("subscriptions/listen", { notifications: {} }, { server: "features" }),
      "subscriptions/listen",
      "2025",
    );
    expect(reply.final?.error.code).toBe(-32601);
  });
});
