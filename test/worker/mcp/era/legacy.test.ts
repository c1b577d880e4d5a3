import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { durableObjects } from "../../../../worker/durable/index.ts";
import { defineServer, elicit, tool, inputRounds } from "../../../../worker/mcp/index.ts";
import { legacyRequest } from "../../../support/mcp-request.ts";
import { send } from "../../call.ts";
import { serve } from "../../custom-server.ts";

const legacy = (
  method: string,
  params?: Record<string, unknown>,
  options?: Parameters<typeof legacyRequest>[2],
) => send(legacyRequest(method, params, options), method, "2025");

const init = (protocolVersion: string) =>
  legacy(
    "initialize",
    { protocolVersion, capabilities: {}, clientInfo: { name: "old", version: "1" } },
    { version: null },
  );

describe("initialize (2025 clients)", () => {
  it.each(["2025-11-25", "2025-06-18", "2025-03-26"])(
    "echoes the supported version %s",
    async (version) => {
      const { status, final, headers } = await init(version);
      expect(status).toBe(200);
      expect(final?.result).toMatchObject({
        protocolVersion: version,
        serverInfo: { name: "edgemcp-everything", version: "0.1.0" },
      });
      expect(final?.result.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
      expect(final?.result.resultType).toBeUndefined();
      // A session id that holds no state: it scopes the client's cancellations.
      expect(headers.get("Mcp-Session-Id")).toMatch(/^[A-Za-z0-9_-]{22}\.$/);
    },
  );

  it.each(["2024-11-05", "2026-07-28", "1999-01-01"])(
    "offers the newest 2025 version for %s",
    async (version) => {
      const { final } = await init(version);
      expect(final?.result.protocolVersion).toBe("2025-11-25");
    },
  );

  it("gives the session id on an SSE reply too (a client that accepts only event streams)", async () => {
    const request = legacyRequest(
      "initialize",
      {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "old", version: "1" },
      },
      { version: null, headers: { Accept: "text/event-stream" } },
    );
    const response = await exports.default.fetch(request);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("Mcp-Session-Id")).toMatch(/^[A-Za-z0-9_-]{22}\.$/);
    expect(await response.text()).toContain('"protocolVersion":"2025-11-25"');
  });

  it("answers missing initialize params with -32602", async () => {
    const { final } = await legacy("initialize", {}, { version: null });
    expect(final?.error.code).toBe(-32602);
  });

  it("accepts notifications/initialized with 202", async () => {
    const response = await exports.default.fetch(
      legacyRequest("notifications/initialized", undefined, { notification: true }),
    );
    expect(response.status).toBe(202);
  });
});

describe("requests after the handshake, each standing alone", () => {
  it("answers ping, setLevel and (un)subscribe with exactly {}", async () => {
    expect((await legacy("ping")).final?.result).toEqual({});
    expect((await legacy("logging/setLevel", { level: "debug" })).final?.result).toEqual({});
    expect(
      (await legacy("resources/subscribe", { uri: "test://watched-resource" })).final?.result,
    ).toEqual({});
    expect(
      (await legacy("resources/unsubscribe", { uri: "test://watched-resource" })).final?.result,
    ).toEqual({});
  });

  it("answers an unknown log level with -32602", async () => {
    expect((await legacy("logging/setLevel", { level: "loud" })).final?.error.code).toBe(-32602);
  });

  it("answers subscribing to a missing resource with -32002", async () => {
    expect((await legacy("resources/subscribe", { uri: "test://missing" })).final?.error.code).toBe(
      -32002,
    );
  });

  it("reads a missing MCP-Protocol-Version as 2025-03-26", async () => {
    const { status, final } = await legacy("tools/list", {}, { version: null });
    expect(status).toBe(200);
    expect(final?.result.tools.length).toBeGreaterThan(5);
  });

  it("rejects an unknown MCP-Protocol-Version with 400", async () => {
    const { status, final } = await legacy("tools/list", {}, { version: "2024-01-01" });
    expect(status).toBe(400);
    expect(final?.error).toMatchObject({ code: -32600, data: { requested: "2024-01-01" } });
  });

  it("lists tools without 2026 fields, dropping non-object output schemas", async () => {
    const { final } = await legacy("tools/list");
    expect(final?.result).not.toHaveProperty("resultType");
    expect(final?.result).not.toHaveProperty("ttlMs");
    const primes = final?.result.tools.find((t: { name: string }) => t.name === "list_primes");
    expect(primes.outputSchema).toBeUndefined();
    const add = final?.result.tools.find((t: { name: string }) => t.name === "add_numbers");
    expect(add.outputSchema.type).toBe("object");
  });

  it("keeps object structured content and drops other kinds, keeping the text", async () => {
    const add = await legacy("tools/call", { name: "add_numbers", arguments: { a: 1, b: 2 } });
    expect(add.final?.result).toEqual({
      content: [{ type: "text", text: '{"sum":3}' }],
      structuredContent: { sum: 3 },
    });
    const primes = await legacy("tools/call", { name: "list_primes", arguments: { below: 6 } });
    expect(primes.final?.result).toEqual({ content: [{ type: "text", text: "[2,3,5]" }] });
  });

  it("reads resources without cache fields and answers a missing one with -32002", async () => {
    const ok = await legacy("resources/read", { uri: "test://static-text" });
    expect(ok.final?.result).toEqual({
      contents: [
        {
          uri: "test://static-text",
          mimeType: "text/plain",
          text: "This is the content of the static text resource.",
        },
      ],
    });
    const missing = await legacy("resources/read", { uri: "test://missing" });
    expect(missing.status).toBe(200);
    expect(missing.final?.error).toMatchObject({ code: -32002, data: { uri: "test://missing" } });
  });

  it("streams all log messages, since the level set earlier cannot be remembered", async () => {
    const reply = await legacy("tools/call", { name: "test_tool_with_logging", arguments: {} });
    expect(reply.contentType).toBe("text/event-stream");
    expect(reply.messages.filter((m) => m.method === "notifications/message")).toHaveLength(3);
  });

  it("streams progress for a token in _meta", async () => {
    const reply = await legacy("tools/call", {
      name: "test_tool_with_progress",
      arguments: {},
      _meta: { progressToken: 7 },
    });
    expect(
      reply.messages
        .filter((m) => m.method === "notifications/progress")
        .map((m) => m.params.progressToken),
    ).toEqual([7, 7, 7]);
  });

  it("does not check Mcp-Param headers, which 2025 clients never send", async () => {
    const { final } = await legacy("tools/call", {
      name: "test_x_mcp_header",
      arguments: { region: "eu" },
    });
    expect(final?.result.content[0].text).toBe("region=eu priority=- urgent=-");
  });

  it("answers an unknown method with -32601 at HTTP 200 (a 2025 client reads 404 as a lost session)", async () => {
    const { status, final } = await legacy("server/discover");
    expect(status).toBe(200);
    expect(final?.error).toMatchObject({
      code: -32601,
      message:
        'Method not found: "server/discover" (server/discover needs the 2026-07-28 _meta envelope).',
      data: { method: "server/discover" },
    });
  });

  it("answers GET, which 2025 clients use to open a stream, with 405", async () => {
    const response = await exports.default.fetch(
      new Request("http://localhost/mcp/everything", {
        headers: { Accept: "text/event-stream", "MCP-Protocol-Version": "2025-11-25" },
      }),
    );
    expect(response.status).toBe(405);
  });

  it("answers DELETE, which 2025 clients send to end their session, with 204", async () => {
    const end = (headers: Record<string, string>) =>
      exports.default.fetch(
        new Request("http://localhost/mcp/everything", {
          method: "DELETE",
          headers: { "MCP-Protocol-Version": "2025-11-25", Origin: "http://localhost", ...headers },
        }),
      );
    const ended = await end({ "Mcp-Session-Id": "6GV2nisX_NwjhfWxFIfm8g" });
    expect(ended.status).toBe(204);
    expect(await ended.text()).toBe("");
    // A DELETE naming no session has nothing to end either: 405.
    const bare = await end({});
    expect(bare.status).toBe(405);
    expect(bare.headers.get("Allow")).toBe("POST, OPTIONS");
  });
});

describe("asking 2025 clients for input", () => {
  const definition = defineServer({
    name: "asks-legacy",
    version: "1",
    input: inputRounds,
    tools: [
      tool({
        name: "greet",
        description: "Asks for a name",
        run: async (_args, ctx) => {
          const { who } = await ctx.input({
            who: elicit({ message: "Name?", schema: z.object({ name: z.string() }) }),
          });
          return who.action === "accept" ? `hi ${who.content.name}` : "nobody";
        },
      }),
    ],
  });
  const call = (accept: string) => {
    const request = legacyRequest("tools/call", { name: "greet", arguments: {} });
    const headers = new Headers(request.headers);
    headers.set("Accept", accept);
    return new Request(request, { headers });
  };

  it("refuses a client that accepts only JSON, since the request goes on an SSE stream", async () => {
    const server = serve(definition, {
      durable: (e) => durableObjects({ rendezvous: e.MCP_RENDEZVOUS }),
    });
    const { status, final } = await server.send(call("application/json"), "tools/call", "2025");
    expect(status).toBe(400);
    expect(final?.error).toMatchObject({
      code: -32600,
      message: "Cannot send elicitation/create to a client that does not accept text/event-stream.",
    });
  });

  it("answers -32603 where no rendezvous object is bound to carry the answer back", async () => {
    const server = serve(definition);
    const { status, final } = await server.send(
      call("application/json, text/event-stream"),
      "tools/call",
      "2025",
    );
    expect(status).toBe(200);
    expect(final?.error).toMatchObject({
      code: -32603,
      message: expect.stringContaining("no rendezvous Durable Object is bound"),
    });
  });
});
