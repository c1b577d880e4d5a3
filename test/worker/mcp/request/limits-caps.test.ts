import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { durableObjects } from "../../../../worker/durable/index.ts";
import { defineServer, tool, storedTasks, listenStreams } from "../../../../worker/mcp/index.ts";
import { eventually } from "../../../support/eventually.ts";
import { mcpRequest } from "../../../support/mcp-request.ts";
import { serve } from "../../custom-server.ts";
import { messages } from "../../stream.ts";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

const definition = defineServer({
  name: "capped",
  version: "1",
  listen: listenStreams,
  tasks: storedTasks,
  tools: [
    tool({
      name: "wait",
      description: "Waits until cancelled or `ms` pass; may run as a task",
      input: z.object({ ms: z.number().int() }),
      task: { mode: "optional", ttlMs: 60_000, pollIntervalMs: 50 },
      run: async ({ ms }, ctx) => {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          ctx.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            resolve();
          });
        });
        return "waited";
      },
    }),
  ],
});

const server = serve(definition, {
  limits: { listenStreams: 2, liveTasks: 2 },
  durable: (e) => durableObjects({ limits: e.MCP_LIMITS, bus: e.MCP_BUS, tasks: e.MCP_TASKS }),
});

let nextAddress = 1;
const address = () => `198.51.100.${nextAddress++}`;

const listen = (ip: string) =>
  mcpRequest(
    "subscriptions/listen",
    { notifications: { toolsListChanged: true } },
    { server: "capped", headers: { "CF-Connecting-IP": ip } },
  );
const startTask = (ip: string, ms: number) =>
  server.send(
    mcpRequest(
      "tools/call",
      { name: "wait", arguments: { ms } },
      { server: "capped", capabilities: TASKS, headers: { "CF-Connecting-IP": ip } },
    ),
    "tools/call",
  );
const taskRequest = (ip: string, method: string, taskId: string) =>
  server.send(
    mcpRequest(
      method,
      { taskId },
      {
        server: "capped",
        capabilities: TASKS,
        headers: { "CF-Connecting-IP": ip, "Mcp-Name": taskId },
      },
    ),
    method,
  );
const held = (ip: string, kind: string) => env.MCP_LIMITS.getByName(`ip:${ip}`).held(kind);

describe("the cap on a caller's open listen streams", () => {
  it("refuses one stream more than the cap with 429, and frees a place when one closes", async () => {
    const ip = address();
    const open = [
      messages(await server.fetch(listen(ip)), "subscriptions/listen"),
      messages(await server.fetch(listen(ip)), "subscriptions/listen"),
    ];
    for (const stream of open) expect((await stream.next()).method).toMatch(/acknowledged/);
    const refused = await server.fetch(listen(ip));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBeNull();
    expect((await refused.json<{ error: { message: string } }>()).error.message).toBe(
      "Too many listen streams: this caller already has 2 open. Close one before opening another.",
    );
    // Another caller has places of its own.
    const other = messages(await server.fetch(listen(address())), "subscriptions/listen");
    expect((await other.next()).method).toMatch(/acknowledged/);
    await other.close();

    await open[0]?.close();
    await eventually(async () => ((await held(ip, "listen")) === 1 ? true : undefined), {
      what: "the closed stream's place freed",
    });
    const again = messages(await server.fetch(listen(ip)), "subscriptions/listen");
    expect((await again.next()).method).toMatch(/acknowledged/);
    await again.close();
    await open[1]?.close();
  });

  it("frees the place as soon as the client goes away, though nothing was written since", async () => {
    const ip = address();
    const client = new AbortController();
    const gone = await server.fetch(new Request(listen(ip), { signal: client.signal }));
    const events = messages(gone, "subscriptions/listen");
    expect((await events.next()).method).toMatch(/acknowledged/);
    expect(await held(ip, "listen")).toBe(1);
    // The connection drops: workerd aborts the request's signal; the stream is never read again.
    client.abort();
    await eventually(async () => ((await held(ip, "listen")) === 0 ? true : undefined), {
      what: "the vanished client's place freed",
      timeoutMs: 3000,
    });
  });

  it("frees the place when the server ends the stream at its time limit", async () => {
    const brief = serve(definition, {
      listenMaxMs: 100,
      limits: { listenStreams: 1 },
      durable: (e) => durableObjects({ limits: e.MCP_LIMITS, bus: e.MCP_BUS }),
    });
    const ip = address();
    for (let round = 0; round < 3; round++) {
      const response = await brief.fetch(listen(ip));
      expect(response.status).toBe(200);
      // Read to the end: the acknowledgement, then the listen result when the time is up.
      expect(await response.text()).toContain('"resultType":"complete"');
      await eventually(async () => ((await held(ip, "listen")) === 0 ? true : undefined));
    }
  });
});

describe("the cap on a caller's live tasks", () => {
  it("refuses a task more than the cap with 429, and frees a place when one is cancelled", async () => {
    const ip = address();
    const first = await startTask(ip, 30_000);
    const second = await startTask(ip, 30_000);
    expect(first.final?.result.resultType).toBe("task");
    expect(second.final?.result.resultType).toBe("task");
    const refused = await startTask(ip, 30_000);
    expect(refused.status).toBe(429);
    expect(refused.final?.error.message).toBe(
      "Too many live tasks: this caller already has 2 not yet finished. Wait for one to end, or cancel one.",
    );
    // Reading and cancelling tasks are not refused.
    expect((await taskRequest(ip, "tasks/get", first.final?.result.taskId)).status).toBe(200);
    expect((await taskRequest(ip, "tasks/cancel", first.final?.result.taskId)).status).toBe(200);
    expect(await held(ip, "task")).toBe(1);
    const third = await startTask(ip, 30_000);
    expect(third.final?.result.resultType).toBe("task");
    for (const { final } of [second, third])
      await taskRequest(ip, "tasks/cancel", final?.result.taskId);
    expect(await held(ip, "task")).toBe(0);
  });

  it("frees the place when a task completes", async () => {
    const ip = address();
    const ids = [(await startTask(ip, 10)).final?.result.taskId];
    ids.push((await startTask(ip, 10)).final?.result.taskId);
    for (const taskId of ids)
      await eventually(async () => {
        const { final } = await taskRequest(ip, "tasks/get", taskId);
        return final?.result.status === "completed" ? true : undefined;
      });
    expect(await held(ip, "task")).toBe(0);
    expect((await startTask(ip, 10)).final?.result.resultType).toBe("task");
  });

  it("forgets a lease whose release never came once its time is up", async () => {
    const limiter = env.MCP_LIMITS.getByName(`lost-${address()}`);
    const lease = (id: string) => ({ kind: "task", id, max: 1, ttlMs: 100 });
    expect(await limiter.acquire(lease("a"))).toBe(true);
    expect(await limiter.acquire(lease("b"))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await limiter.acquire(lease("b"))).toBe(true);
  });
});
