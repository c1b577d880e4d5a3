import { afterEach, describe, expect, it } from "vitest";
import { connect } from "../../../shared/client/index.ts";
import { startFakeServer, type FakeRoute, type FakeServer } from "./fake-server.ts";

describe("edgemcp client: reading replies from fake servers", () => {
  let fake: FakeServer;
  afterEach(() => fake.close());

  it("reads a JSON-RPC error sent on an SSE stream after notifications", async () => {
    fake = await startFakeServer({
      "tools/list": (_call, reply) =>
        reply.result({ resultType: "complete", tools: [], ttlMs: 0, cacheScope: "public" }),
      "tools/call": (call, reply) => {
        const stream = reply.stream();
        stream.notify("notifications/progress", { progressToken: call.id, progress: 1 });
        stream.send({ jsonrpc: "2.0", id: call.id, error: { code: -32603, message: "boom" } });
        stream.end();
      },
    });
    const client = await connect(fake.url);
    const progress: number[] = [];
    await expect(
      client.callTool("x", {}, { onProgress: (p) => progress.push(p.progress) }),
    ).rejects.toMatchObject({ kind: "rpc", code: -32603, message: "boom" });
    expect(progress).toEqual([1]);
  });

  it("fails a stream that ends before its response", async () => {
    fake = await startFakeServer({
      "tools/list": (_call, reply) =>
        reply.result({ resultType: "complete", tools: [], ttlMs: 0, cacheScope: "public" }),
      "tools/call": (_call, reply) => reply.stream().end(),
    });
    const client = await connect(fake.url);
    await expect(client.callTool("x")).rejects.toMatchObject({
      kind: "protocol",
      method: "tools/call",
      message: "The tools/call stream ended before its response.",
    });
  });

  it("fails a result that does not match its schema, naming the method", async () => {
    fake = await startFakeServer({
      "prompts/get": (_call, reply) => reply.result({ resultType: "complete", messages: "nope" }),
    });
    const client = await connect(fake.url);
    await expect(client.getPrompt("p")).rejects.toMatchObject({
      kind: "protocol",
      method: "prompts/get",
      message: expect.stringMatching(/^The prompts\/get result is not valid: .*messages/s),
      data: { result: { resultType: "complete", messages: "nope" } },
    });
  });

  it("fails a result type it does not know", async () => {
    fake = await startFakeServer({
      "prompts/get": (_call, reply) => reply.result({ resultType: "banana", messages: [] }),
    });
    const client = await connect(fake.url);
    await expect(client.getPrompt("p")).rejects.toMatchObject({
      kind: "protocol",
      method: "prompts/get",
      message: 'Unsupported result type "banana" for prompts/get.',
    });
  });

  it("sends an empty name or argument as the empty base64 sentinel", async () => {
    const tools = [
      {
        name: "t",
        inputSchema: { type: "object", properties: { r: { type: "string", "x-mcp-header": "R" } } },
      },
    ];
    fake = await startFakeServer({
      "tools/list": (_call, reply) =>
        reply.result({ resultType: "complete", tools, ttlMs: 0, cacheScope: "public" }),
      "tools/call": (_call, reply) => reply.result({ resultType: "complete", content: [] }),
      "prompts/get": (_call, reply) => reply.result({ resultType: "complete", messages: [] }),
    });
    const client = await connect(fake.url);
    await client.callTool("t", { r: "" });
    await client.getPrompt("");
    expect(fake.callsOf("tools/call")[0]?.headers.get("Mcp-Param-R")).toBe("=?base64??=");
    expect(fake.callsOf("prompts/get")[0]?.headers.get("Mcp-Name")).toBe("=?base64??=");
  });

  it("fails a JSON reply whose body is not JSON", async () => {
    fake = await startFakeServer({
      "prompts/get": (_call, reply) => reply.raw(200, "application/json", "nope"),
    });
    const client = await connect(fake.url);
    await expect(client.getPrompt("p")).rejects.toMatchObject({
      kind: "protocol",
      code: undefined,
      method: "prompts/get",
      message: "The prompts/get reply is not JSON.",
      data: { text: "nope" },
    });
  });

  it("fails a JSON reply that is not a JSON-RPC message", async () => {
    fake = await startFakeServer({
      "prompts/get": (_call, reply) => reply.json({ foo: 1 }),
    });
    const client = await connect(fake.url);
    await expect(client.getPrompt("p")).rejects.toMatchObject({
      kind: "protocol",
      code: undefined,
      method: "prompts/get",
      message: "The prompts/get reply is not a JSON-RPC message.",
      data: { message: { foo: 1 } },
    });
  });

  it("fails a 200 reply that is neither JSON nor SSE", async () => {
    fake = await startFakeServer({
      "prompts/get": (_call, reply) => reply.raw(200, "text/html; charset=utf-8", "<p>hi</p>"),
    });
    const client = await connect(fake.url);
    await expect(client.getPrompt("p")).rejects.toMatchObject({
      kind: "protocol",
      code: undefined,
      status: 200,
      message: 'The prompts/get reply has status 200 and type "text/html", not JSON or SSE.',
    });
  });

  it("fails a JSON result that answers another request id", async () => {
    fake = await startFakeServer({
      "prompts/get": (call, reply) =>
        reply.json({
          jsonrpc: "2.0",
          id: Number(call.id) + 1000,
          result: { resultType: "complete", messages: [] },
        }),
    });
    const client = await connect(fake.url);
    const attempt = client.getPrompt("p");
    await expect(attempt).rejects.toMatchObject({ kind: "protocol", code: undefined, status: 200 });
    const id = fake.callsOf("prompts/get")[0]?.id;
    await expect(attempt).rejects.toThrow(`The prompts/get reply does not answer request ${id}.`);
  });

  it("fails a list whose server returns the same cursor twice", async () => {
    fake = await startFakeServer({
      "tools/list": (_call, reply) =>
        reply.result({ resultType: "complete", tools: [], nextCursor: "c", ttlMs: 0 }),
    });
    const client = await connect(fake.url);
    await expect(client.listTools()).rejects.toMatchObject({
      kind: "protocol",
      code: undefined,
      method: "tools/list",
      message: 'tools/list returned the cursor "c" twice.',
    });
    expect(fake.callsOf("tools/list").map((call) => call.params.cursor)).toEqual([undefined, "c"]);
  });

  it("drops tools with invalid x-mcp-header declarations and reports them", async () => {
    const tools = [
      {
        name: "good",
        inputSchema: { type: "object", properties: { r: { type: "string", "x-mcp-header": "R" } } },
      },
      {
        name: "number",
        inputSchema: { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } },
      },
      {
        name: "nested-in-items",
        inputSchema: {
          type: "object",
          properties: { list: { type: "array", items: { type: "string", "x-mcp-header": "L" } } },
        },
      },
      {
        name: "duplicate",
        inputSchema: {
          type: "object",
          properties: {
            a: { type: "string", "x-mcp-header": "Dup" },
            b: { type: "string", "x-mcp-header": "dup" },
          },
        },
      },
      {
        name: "header-key-in-data",
        inputSchema: {
          type: "object",
          properties: {
            o: {
              type: "object",
              default: { "x-mcp-header": "D" },
              examples: [{ "x-mcp-header": "E" }],
            },
          },
        },
      },
    ];
    fake = await startFakeServer({
      "tools/list": (_call, reply) =>
        reply.result({ resultType: "complete", tools, ttlMs: 0, cacheScope: "public" }),
    });
    const warnings: string[] = [];
    const client = await connect(fake.url, { onWarning: (message) => warnings.push(message) });
    const { result } = await client.listTools();
    expect(result.tools.map((tool) => tool.name)).toEqual(["good", "header-key-in-data"]);
    expect(warnings).toHaveLength(3);
    expect(warnings).toEqual([
      'Dropped tool "number": "n" must be a string, integer or boolean property (got "number").',
      'Dropped tool "nested-in-items": "list" is not reachable through "properties" alone.',
      'Dropped tool "duplicate": "dup" is used twice (names are case-insensitive).',
    ]);
  });
});

/** A server whose tools/call asks for roots on every round, never finishing. */
const ASKS_FOR_ROOTS_FOREVER: Record<string, FakeRoute> = {
  "tools/list": (_call, reply) =>
    reply.result({ resultType: "complete", tools: [], ttlMs: 0, cacheScope: "public" }),
  "tools/call": (_call, reply) =>
    reply.result({ resultType: "input_required", inputRequests: { r: { method: "roots/list" } } }),
};

describe("edgemcp client: input rounds against fake servers", () => {
  let fake: FakeServer;
  afterEach(() => fake.close());

  it("fails an input_required result that asks for nothing and carries no state", async () => {
    fake = await startFakeServer({
      "tools/list": (_call, reply) =>
        reply.result({ resultType: "complete", tools: [], ttlMs: 0, cacheScope: "public" }),
      "tools/call": (_call, reply) => reply.result({ resultType: "input_required" }),
    });
    const client = await connect(fake.url);
    await expect(client.callTool("x")).rejects.toMatchObject({
      kind: "protocol",
      code: undefined,
      method: "tools/call",
      message: "An input_required result of tools/call asks for nothing.",
    });
    expect(fake.callsOf("tools/call")).toHaveLength(1);
  });

  it("never caches a read that needed input, but caches the plain one", async () => {
    fake = await startFakeServer({
      "resources/read": (call, reply) => {
        const answered = call.params.inputResponses !== undefined;
        if (call.params.uri === "file:///guarded" && !answered) {
          return reply.result({
            resultType: "input_required",
            inputRequests: { root: { method: "roots/list" } },
          });
        }
        reply.result({
          resultType: "complete",
          contents: [{ uri: String(call.params.uri), text: "x" }],
          ttlMs: 60_000,
          cacheScope: "public",
        });
      },
    });
    const client = await connect(fake.url, {
      handlers: { roots: async () => ({ roots: [{ uri: "file:///p" }] }) },
    });
    const guarded = [
      await client.readResource("file:///guarded"),
      await client.readResource("file:///guarded"),
    ];
    expect(guarded.map((reply) => reply.source)).toEqual(["network", "network"]);
    expect(fake.callsOf("resources/read")).toHaveLength(4);
    const plain = [
      await client.readResource("file:///plain"),
      await client.readResource("file:///plain"),
    ];
    expect(plain.map((reply) => reply.source)).toEqual(["network", "cache"]);
  });

  it("retries a state-only round with the state alone", async () => {
    fake = await startFakeServer({
      "tools/list": (_call, reply) =>
        reply.result({ resultType: "complete", tools: [], ttlMs: 0, cacheScope: "public" }),
      "tools/call": (call, reply) =>
        call.params.requestState === "step-2"
          ? reply.result({ resultType: "complete", content: [{ type: "text", text: "done" }] })
          : reply.result({ resultType: "input_required", requestState: "step-2" }),
    });
    const client = await connect(fake.url);
    const { result } = await client.callTool("x");
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    const retry = fake.callsOf("tools/call")[1];
    expect(retry?.params).toMatchObject({ requestState: "step-2" });
    expect(retry?.params).not.toHaveProperty("inputResponses");
  });

  it("stops after the default 8 rounds", async () => {
    fake = await startFakeServer(ASKS_FOR_ROOTS_FOREVER);
    const client = await connect(fake.url, { handlers: { roots: async () => ({ roots: [] }) } });
    await expect(client.callTool("x")).rejects.toMatchObject({
      kind: "client",
      data: { maxRounds: 8 },
    });
    expect(fake.callsOf("tools/call")).toHaveLength(9);
  });

  it("fails when the server asks for input the client has no handler for", async () => {
    fake = await startFakeServer(ASKS_FOR_ROOTS_FOREVER);
    const client = await connect(fake.url);
    await expect(client.callTool("x")).rejects.toMatchObject({
      kind: "client",
      data: { key: "r" },
    });
  });
});
