import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { Limiter } from "../../../worker/durable/limiter.ts";
import type { TaskObject } from "../../../worker/durable/task-object.ts";
import {
  coordinate,
  durableObjects,
  type DurableCoordination,
} from "../../../worker/durable/index.ts";
import {
  defineServer,
  tool,
  type Coordination,
  storedTasks,
  listenStreams,
} from "../../../worker/mcp/index.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const BROKEN = "Durable Object reset because its code was updated. (storage: disk I/O error)";

const definition = defineServer({
  name: "fragile",
  version: "1",
  listen: listenStreams,
  tasks: storedTasks,
  tools: [
    tool({ name: "plain", description: "Needs no coordination", run: () => "plain ok" }),
    tool({
      name: "job",
      description: "Runs as a task where it can",
      input: z.object({}),
      task: { mode: "optional" },
      run: () => "job ok",
    }),
  ],
});

/** A task-object namespace whose objects throw, as an object being reset or out of storage does. */
const throwingTasks = {
  newUniqueId: () => env.MCP_TASKS.newUniqueId(),
  idFromString: (id: string) => env.MCP_TASKS.idFromString(id),
  get: () => {
    const fail = () => Promise.reject(new Error(BROKEN));
    return { create: fail, read: fail, answer: fail, cancel: fail };
  },
} as unknown as DurableObjectNamespace<TaskObject>;

const fail = () => Promise.reject(new Error(BROKEN));
const throwingPorts: Coordination = {
  listen: { open: fail, publish: fail },
  limits: { take: fail, acquire: fail, release: fail },
};

function call(server: ReturnType<typeof serve>, name: string, capabilities = {}) {
  return server.send(
    mcpRequest("tools/call", { name, arguments: {} }, { server: "fragile", capabilities }),
    "tools/call",
  );
}

describe("coordination that throws", () => {
  it("a task object that throws: 503 naming the task store, and plain calls still answer", async () => {
    const server = serve(definition, { durable: () => durableObjects({ tasks: throwingTasks }) });
    const failed = await call(server, "job", TASKS);
    expect(failed.status).toBe(503);
    expect(failed.final?.error).toEqual({
      code: -32603,
      message: "The task store is unavailable right now. Try again shortly.",
    });
    expect(JSON.stringify(failed.final)).not.toContain("disk I/O");
    const taskId = env.MCP_TASKS.newUniqueId().toString();
    const get = await server.send(
      mcpRequest(
        "tasks/get",
        { taskId },
        { server: "fragile", capabilities: TASKS, headers: { "Mcp-Name": taskId } },
      ),
      "tasks/get",
    );
    expect(get.status).toBe(503);
    expect((await call(server, "plain")).final?.result.content[0].text).toBe("plain ok");
    // A client without the tasks extension runs the tool in the request, as always.
    expect((await call(server, "job")).final?.result.content[0].text).toBe("job ok");
  });

  it("a listen hub that throws: 503 for the listen request only", async () => {
    const server = serve(definition, {
      durable: () => coordinate({ listen: throwingPorts.listen }),
    });
    const listen = await server.send(
      mcpRequest(
        "subscriptions/listen",
        { notifications: { toolsListChanged: true } },
        { server: "fragile" },
      ),
      "subscriptions/listen",
    );
    expect(listen.status).toBe(503);
    expect(listen.final?.error.message).toBe(
      "The listen hub is unavailable right now. Try again shortly.",
    );
    expect((await call(server, "plain")).final?.result.content[0].text).toBe("plain ok");
  });

  it("a rate limiter that throws: every request refused with 503, failing closed", async () => {
    const server = serve(definition, {
      durable: () => coordinate({ limits: throwingPorts.limits }),
    });
    const refused = await call(server, "plain");
    expect(refused.status).toBe(503);
    expect(refused.final?.error.message).toBe(
      "The rate limiter is unavailable right now. Try again shortly.",
    );
    expect(refused.final).not.toHaveProperty("result");
  });

  it("a limiter object whose calls fail over RPC: 503, failing closed (a stub's call answers with no Promise, a thenable)", async () => {
    // Real stubs of another class: every call of a Limiter method is refused by workerd's RPC,
    // as a call to an object whose process is gone is.
    const unreachable = {
      getByName: (name: string) => env.MCP_TASKS.getByName(name),
    } as unknown as DurableObjectNamespace<Limiter>;
    const server = serve(definition, { durable: () => durableObjects({ limits: unreachable }) });
    const refused = await call(server, "plain");
    expect(refused.status).toBe(503);
    expect(refused.final?.error).toEqual({
      code: -32603,
      message: "The rate limiter is unavailable right now. Try again shortly.",
    });
  });

  it("a limiter that does not answer: 503 'did not answer in time' once coordinationTimeoutMs has passed, not a hang", async () => {
    const silent = () => new Promise<never>(() => {});
    const server = serve(definition, {
      durable: () => coordinate({ limits: { take: silent, acquire: silent, release: silent } }),
      coordinationTimeoutMs: 300,
    });
    const started = Date.now();
    const refused = await call(server, "plain");
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(refused.status).toBe(503);
    expect(refused.final?.error).toEqual({
      code: -32603,
      message: "The rate limiter did not answer in time (0.3 s). Try again shortly.",
    });
  });

  it("a task store that does not answer: 503 naming it, while the limiter still counts", async () => {
    const server = serve(definition, {
      durable: (e) =>
        coordinate({
          ...durableObjects({ limits: e.MCP_LIMITS }).ports,
          tasks: {
            forCaller: () => ({
              create: () => new Promise<never>(() => {}),
              get: () => new Promise<never>(() => {}),
              update: () => new Promise<never>(() => {}),
              cancel: () => new Promise<never>(() => {}),
            }),
          },
        }),
      coordinationTimeoutMs: 300,
    });
    const refused = await call(server, "job", TASKS);
    expect(refused.status).toBe(503);
    expect(refused.final?.error.message).toBe(
      "The task store did not answer in time (0.3 s). Try again shortly.",
    );
  });

  it("keeps protocol refusals of a working port as they are", async () => {
    const server = serve(definition, { durable: (e) => durableObjects({ tasks: e.MCP_TASKS }) });
    const unknown = await server.send(
      mcpRequest(
        "tasks/get",
        { taskId: "not-a-task" },
        { server: "fragile", capabilities: TASKS, headers: { "Mcp-Name": "not-a-task" } },
      ),
      "tasks/get",
    );
    expect(unknown.status).toBe(200);
    expect(unknown.final?.error.code).toBe(-32602);
  });

  it("refuses ports not handed over through edgemcp/durable: 500 naming coordinate(), never uncounted", async () => {
    // What a JavaScript caller could pass: a limits port as it is, which no module binds.
    const raw = () => ({ limits: throwingPorts.limits }) as unknown as DurableCoordination;
    const server = serve(definition, { durable: raw });
    const refused = await call(server, "plain");
    expect(refused.status).toBe(500);
    expect(refused.final?.error.message).toMatch(
      /^Server misconfigured: the durable option must return durableObjects\(.*coordinate\(ports\)/,
    );
  });
});
