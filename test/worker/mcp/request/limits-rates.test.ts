import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { durableObjects } from "../../../../worker/durable/index.ts";
import { hubServer } from "../../../../worker/hub/hub-server.ts";
import {
  bearerTokens,
  defineServer,
  tool,
  type McpAppOptions,
} from "../../../../worker/mcp/index.ts";
import { legacyRequest, mcpRequest } from "../../../support/mcp-request.ts";
import { serve } from "../../custom-server.ts";
import { inProcess } from "../../hub/support.ts";

const definition = defineServer({
  name: "rated",
  version: "1",
  tools: [
    tool({ name: "a", description: "A", input: z.object({}), run: () => "a" }),
    tool({ name: "b", description: "B", input: z.object({}), run: () => "b" }),
  ],
});

let nextAddress = 1;
/** A fresh anonymous caller: its own address, so its own budgets. */
const address = () => `203.0.113.${nextAddress++}`;

function served(limits: McpAppOptions["limits"]) {
  return serve(definition, {
    limits,
    authenticate: bearerTokens({ variable: "API_TOKENS" }),
    // Anonymous callers, known by their addresses, are the ones most tests count.
    anonymous: "all",
    durable: (e) => durableObjects({ limits: e.MCP_LIMITS }),
  });
}

const list = (ip: string, headers: Record<string, string> = {}) =>
  mcpRequest(
    "tools/list",
    {},
    { server: "rated", headers: { "CF-Connecting-IP": ip, ...headers } },
  );
const callTool = (ip: string, name: string) =>
  mcpRequest(
    "tools/call",
    { name, arguments: {} },
    { server: "rated", headers: { "CF-Connecting-IP": ip } },
  );

describe("rate limits per caller", () => {
  it("counts the addresses of one IPv6 /64 as one anonymous caller, and another /64 apart", async () => {
    const server = served({ requestsPerMinute: 2 });
    for (const ip of ["2001:db8:77:1::1", "2001:DB8:77:1:ffff:ffff:ffff:fffe"])
      expect((await server.fetch(list(ip))).status).toBe(200);
    expect((await server.fetch(list("2001:db8:77:1:abcd::5"))).status).toBe(429);
    expect((await server.fetch(list("2001:db8:77:2::1"))).status).toBe(200);
  });

  it("counts an IPv4 address written as IPv6 as that IPv4 caller", async () => {
    const server = served({ requestsPerMinute: 1 });
    expect((await server.fetch(list("192.0.2.77"))).status).toBe(200);
    expect((await server.fetch(list("::ffff:192.0.2.77"))).status).toBe(429);
  });

  it("answers requests past the rate with 429, Retry-After and a JSON-RPC error", async () => {
    const server = served({ requestsPerMinute: 3 });
    const ip = address();
    for (let i = 0; i < 3; i++)
      expect((await server.send(list(ip), "tools/list")).status).toBe(200);
    const response = await server.fetch(list(ip));
    expect(response.status).toBe(429);
    // Three a minute: the next one comes in about 20 s.
    const retryAfter = Number(response.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThanOrEqual(19);
    expect(retryAfter).toBeLessThanOrEqual(20);
    const body = await response.json<{
      jsonrpc: string;
      id: null;
      error: { code: number; message: string };
    }>();
    expect(body).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: "Too many requests from this caller (at most 3 a minute). Retry after 20 s.",
      },
    });
  });

  it("keeps each caller's budget its own: another address, or a subject, is unaffected", async () => {
    const server = served({ requestsPerMinute: 2 });
    const ip = address();
    for (let i = 0; i < 2; i++) await server.fetch(list(ip));
    expect((await server.fetch(list(ip))).status).toBe(429);
    expect((await server.fetch(list(address()))).status).toBe(200);
    // Alice behind the same address is known by her subject, not by the address.
    const alice = { Authorization: "Bearer token-alice" };
    expect((await server.fetch(list(ip, alice))).status).toBe(200);
  });

  it("counts notifications and 2025 requests too", async () => {
    const server = served({ requestsPerMinute: 2 });
    const ip = address();
    const headers = { "CF-Connecting-IP": ip };
    const cancelled = legacyRequest(
      "notifications/cancelled",
      { requestId: 1 },
      { notification: true, server: "rated", headers },
    );
    expect((await server.fetch(cancelled)).status).toBe(202);
    const legacy = legacyRequest("tools/list", {}, { server: "rated", headers });
    expect((await server.fetch(legacy)).status).toBe(200);
    expect((await server.fetch(list(ip))).status).toBe(429);
  });

  it("limits calls of each tool on their own, with the tool named in the error", async () => {
    const server = served({ toolCallsPerMinute: 2 });
    const ip = address();
    for (let i = 0; i < 2; i++)
      expect((await server.send(callTool(ip, "a"), "tools/call")).final?.result).toBeDefined();
    const refused = await server.send(callTool(ip, "a"), "tools/call");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("30");
    expect(refused.final?.error.message).toBe(
      'Too many calls of tool "a" from this caller (at most 2 a minute). Retry after 30 s.',
    );
    expect((await server.send(callTool(ip, "b"), "tools/call")).status).toBe(200);
    expect((await server.send(list(ip), "tools/list")).status).toBe(200);
  });

  it("takes nothing from a budget when another refuses the request", async () => {
    const server = served({ requestsPerMinute: 4, toolCallsPerMinute: 1 });
    const ip = address();
    await server.fetch(callTool(ip, "a"));
    for (let i = 0; i < 5; i++) expect((await server.fetch(callTool(ip, "a"))).status).toBe(429);
    // The refused calls took no request units: 3 remain of the 4.
    for (let i = 0; i < 3; i++) expect((await server.fetch(list(ip))).status).toBe(200);
    expect((await server.fetch(list(ip))).status).toBe(429);
  });

  it("is off when a limit is 0, and without a limits port", async () => {
    const off = served({ requestsPerMinute: 0, toolCallsPerMinute: 0 });
    const ip = address();
    for (let i = 0; i < 20; i++) expect((await off.fetch(callTool(ip, "a"))).status).toBe(200);
    const portless = serve(definition, { limits: { requestsPerMinute: 1 } });
    for (let i = 0; i < 5; i++) expect((await portless.fetch(list(ip))).status).toBe(200);
  });

  it("refills at the rate it announces", async () => {
    const limiter = env.MCP_LIMITS.getByName(`refill-${address()}`);
    const budget = [{ key: "requests", limit: 2, windowMs: 200 }];
    expect(await limiter.take(budget)).toBeUndefined();
    expect(await limiter.take(budget)).toBeUndefined();
    const refused = await limiter.take(budget);
    expect(refused?.key).toBe("requests");
    expect(refused?.waitMs).toBeGreaterThan(50);
    expect(refused?.waitMs).toBeLessThanOrEqual(100);
    await new Promise((resolve) => setTimeout(resolve, (refused?.waitMs ?? 0) + 10));
    expect(await limiter.take(budget)).toBeUndefined();
  });

  it("counts a hub's caller once: the hub's in-process calls are not counted again", async () => {
    const strict = { requestsPerMinute: 1, toolCallsPerMinute: 1 };
    const limited = (e: Cloudflare.Env) => durableObjects({ limits: e.MCP_LIMITS });
    const hub = serve(
      hubServer({
        name: "rated-hub",
        upstreams: () => [inProcess("r", definition, { limits: strict, durable: limited })],
      }),
      { limits: { requestsPerMinute: 100, toolCallsPerMinute: 5 }, durable: limited },
    );
    const ip = address();
    const hubCall = () =>
      mcpRequest(
        "tools/call",
        { name: "r__a", arguments: {} },
        { server: "rated-hub", headers: { "CF-Connecting-IP": ip } },
      );
    for (let i = 0; i < 5; i++) {
      const reply = await hub.send(hubCall(), "tools/call");
      expect(reply.final?.result?.content[0].text).toBe("a");
    }
    // The hub's own per-tool rate applies to its prefixed name.
    const refused = await hub.send(hubCall(), "tools/call");
    expect(refused.status).toBe(429);
    expect(refused.final?.error.message).toMatch(/tool "r__a"/);
  });
});
