import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { durableObjects } from "../../../worker/durable/index.ts";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import {
  bearerTokens,
  defineServer,
  tool,
  storedTasks,
  listenStreams,
} from "../../../worker/mcp/index.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";
import { inProcess } from "./support.ts";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const authenticate = bearerTokens({ variable: "API_TOKENS" });
const durable = (e: Cloudflare.Env) =>
  durableObjects({ limits: e.MCP_LIMITS, bus: e.MCP_BUS, tasks: e.MCP_TASKS });

const slow = defineServer({
  name: "slow",
  version: "1",
  listen: listenStreams,
  tasks: storedTasks,
  tools: [
    tool({
      name: "wait",
      description: "Waits `ms`; runs as a task for clients that can",
      input: z.object({ ms: z.number().int() }),
      annotations: { readOnlyHint: true },
      task: { mode: "optional", ttlMs: 60_000, pollIntervalMs: 50 },
      run: async ({ ms }) => {
        await scheduler.wait(ms);
        return "waited";
      },
    }),
  ],
});

// The server caps live tasks at 2; the hub in front of it counts its own caller's rates. Both
// let anonymous callers use read-only tools.
const open = { authenticate, durable, anonymous: "read-only", limits: { liveTasks: 2 } } as const;
const hub = serve(
  hubServer({ name: "capped-hub", upstreams: () => [inProcess("slow", slow, open)] }),
  open,
  { API_TOKENS: "token-carol=carol" },
);

const start = () =>
  hub.send(
    mcpRequest(
      "tools/call",
      { name: "slow__wait", arguments: { ms: 30_000 } },
      {
        server: "capped-hub",
        capabilities: TASKS,
        headers: { Authorization: "Bearer token-carol" },
      },
    ),
    "tools/call",
  );

describe("the live-task cap through the hub", () => {
  it("holds as on the server's own endpoint: the task past the cap is refused", async () => {
    const first = await start();
    const second = await start();
    expect(first.final?.result.resultType).toBe("task");
    expect(second.final?.result.resultType).toBe("task");
    const third = await start();
    expect(third.final?.result?.resultType).not.toBe("task");
    expect(JSON.stringify(third.final)).toMatch(/Too many live tasks/);
    expect(await env.MCP_LIMITS.getByName("sub:carol").held("task")).toBe(2);
  });
});

const startAnonymous = (ip: string) =>
  hub.send(
    mcpRequest(
      "tools/call",
      { name: "slow__wait", arguments: { ms: 30_000 } },
      { server: "capped-hub", capabilities: TASKS, headers: { "CF-Connecting-IP": ip } },
    ),
    "tools/call",
  );

describe("anonymous callers through the hub", () => {
  it("each have the server's live-task cap of their own, counted at their address", async () => {
    for (const ip of ["203.0.113.7", "2001:db8:77:1::5"]) {
      for (let i = 0; i < 2; i++)
        expect((await startAnonymous(ip)).final?.result.resultType).toBe("task");
      const refused = await startAnonymous(ip);
      expect(JSON.stringify(refused.final)).toMatch(/Too many live tasks/);
    }
    // Another address of the same IPv6 /64 is the same caller.
    expect(JSON.stringify((await startAnonymous("2001:db8:77:1::99")).final)).toMatch(
      /Too many live tasks/,
    );
    expect(await env.MCP_LIMITS.getByName("ip:203.0.113.7").held("task")).toBe(2);
    expect(await env.MCP_LIMITS.getByName("ip:2001:db8:77:1::/64").held("task")).toBe(2);
  });
});
