import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, McpError, type McpClient } from "../../../shared/client/index.ts";
import { everythingUrl, serverUrl } from "../support/clients.ts";
import { wireRecorder } from "./support.ts";

const CLIENT_INFO = { name: "edge-client-test", version: "1.0.0" };

describe("edgemcp client against the Worker: discovery", () => {
  it("connects in the 2026 era with a single server/discover probe", async () => {
    const wire = wireRecorder();
    const client = await connect(everythingUrl(), { clientInfo: CLIENT_INFO, onWire: wire.onWire });
    expect(client.era).toBe("modern");
    expect(wire.methods()).toEqual(["server/discover"]);
    const [probe] = wire.sent;
    expect(probe?.headers.get("MCP-Protocol-Version")).toBe("2026-07-28");
    expect(probe?.headers.get("Mcp-Method")).toBe("server/discover");
    expect(probe?.params?._meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
      "io.modelcontextprotocol/clientCapabilities": {},
    });
  });

  it("exposes the server's versions, capabilities, instructions and serverInfo", async () => {
    const client = await connect(everythingUrl());
    expect(client.server).toMatchObject({
      era: "modern",
      protocolVersion: "2026-07-28",
      supportedVersions: expect.arrayContaining(["2026-07-28", "2025-11-25"]),
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {}, logging: {} },
      instructions: expect.stringContaining("conformance fixtures"),
      serverInfo: { name: "edgemcp-everything", version: "0.1.0" },
    });
  });

  it("retries the probe once with a mutual version when the first gets -32022", async () => {
    const wire = wireRecorder();
    const client = await connect(everythingUrl(), {
      versions: ["2099-01-01", "2026-07-28"],
      onWire: wire.onWire,
    });
    expect(client.era).toBe("modern");
    expect(wire.sent.map((sent) => sent.headers.get("MCP-Protocol-Version"))).toEqual([
      "2099-01-01",
      "2026-07-28",
    ]);
    expect(wire.sent[0]?.id).not.toBe(wire.sent[1]?.id);
  });

  it("answers discover() from the cache within ttlMs, and from the network on refresh", async () => {
    const client = await connect(everythingUrl());
    const cached = await client.discover();
    expect(cached.source).toBe("cache");
    expect(cached.cacheScope).toBe("public");
    expect(cached.freshUntil).toBeGreaterThan(Date.now());
    const fresh = await client.discover({ cache: "refresh" });
    expect(fresh.source).toBe("network");
    expect(fresh.result.serverInfo?.name).toBe("edgemcp-everything");
  });
});

describe("edgemcp client against the Worker: lists", () => {
  let client: McpClient;
  const wire = wireRecorder();
  beforeAll(async () => {
    client = await connect(everythingUrl(), { onWire: wire.onWire });
  });

  it("walks every page of resources/list, following nextCursor", async () => {
    wire.clear();
    const { result, source } = await client.listResources();
    expect(source).toBe("network");
    expect(result.resources).toHaveLength(28);
    expect(result).not.toHaveProperty("nextCursor");
    expect(wire.methods()).toEqual(["resources/list", "resources/list", "resources/list"]);
    expect(wire.sent[0]?.params).not.toHaveProperty("cursor");
    expect(wire.sent[1]?.params).toHaveProperty("cursor", expect.any(String));
  });

  it("returns one page with its cursor when asked, and the next page for that cursor", async () => {
    const first = await client.listResources({ onePage: true, cache: "bypass" });
    expect(first.result.resources).toHaveLength(10);
    expect(first.result.nextCursor).toEqual(expect.any(String));
    const second = await client.listResources({ cursor: first.result.nextCursor, cache: "bypass" });
    expect(second.result.resources[0]?.uri).toBe("test://items/8");
    expect(second.result.nextCursor).toEqual(expect.any(String));
  });

  it("fails a walk that needs more pages than the cap", async () => {
    const walk = client.listResources({ maxPages: 2, cache: "bypass" });
    await expect(walk).rejects.toBeInstanceOf(McpError);
    await expect(walk).rejects.toMatchObject({ kind: "client", data: { maxPages: 2 } });
  });

  it("lists tools, prompts and templates", async () => {
    const tools = await client.listTools();
    expect(tools.result.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["test_x_mcp_header", "add_numbers", "test_slow_counter"]),
    );
    const prompts = await client.listPrompts();
    expect(prompts.result.prompts.map((prompt) => prompt.name)).toContain("test_simple_prompt");
    const templates = await client.listResourceTemplates();
    expect(templates.result.resourceTemplates.map((t) => t.uriTemplate)).toContain(
      "test://template/{id}/data",
    );
  });

  it("completes prompt arguments", async () => {
    const { result } = await client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "test" },
    });
    expect(result.completion.values).toEqual(["test-alpha", "test-beta"]);
  });
});

describe("edgemcp client against the Worker: cache", () => {
  let client: McpClient;
  const wire = wireRecorder();
  beforeAll(async () => {
    client = await connect(everythingUrl(), { onWire: wire.onWire });
  });

  it("serves a repeated list from the cache within ttlMs and says so", async () => {
    wire.clear();
    const first = await client.listTools();
    const second = await client.listTools();
    expect(first.source).toBe("network");
    expect(second.source).toBe("cache");
    expect(second.result.tools).toEqual(first.result.tools);
    expect(second.freshUntil).toBe(first.freshUntil);
    expect(wire.methods()).toEqual(["tools/list"]);
    expect(wire.cacheHits).toEqual(["tools/list"]);
  });

  it("serves a repeated read from the cache, and refetches with cache: refresh", async () => {
    wire.clear();
    const first = await client.readResource("test://static-text");
    const second = await client.readResource("test://static-text");
    const third = await client.readResource("test://static-text", { cache: "refresh" });
    expect([first.source, second.source, third.source]).toEqual(["network", "cache", "network"]);
    expect(second.result.contents).toEqual([
      {
        uri: "test://static-text",
        mimeType: "text/plain",
        text: "This is the content of the static text resource.",
      },
    ]);
    expect(wire.methods()).toEqual(["resources/read", "resources/read"]);
  });

  it("never stores a result whose ttlMs is 0", async () => {
    const first = await client.readResource("test://watched-resource");
    const second = await client.readResource("test://watched-resource");
    expect([first.source, second.source]).toEqual(["network", "network"]);
    expect(second.freshUntil).toBeUndefined();
  });

  it("forgets everything on clearCache()", async () => {
    await client.listPrompts();
    client.clearCache();
    expect((await client.listPrompts()).source).toBe("network");
  });
});

describe("edgemcp client against the Worker: private cache entries", () => {
  let client: McpClient;
  afterAll(() => client.close());

  it("keys private results by the Authorization header they were fetched with", async () => {
    client = await connect(serverUrl("analytics"), {
      headers: { Authorization: "Bearer token-alice" },
    });
    const uri = "d1://analytics/tables/users/rows?limit=2";
    const alice = await client.readResource(uri);
    expect(alice.cacheScope).toBe("private");
    expect((await client.readResource(uri)).source).toBe("cache");

    client.setHeaders({ Authorization: "Bearer token-bob" });
    expect((await client.readResource(uri)).source).toBe("network");
    // Public entries serve every caller.
    expect((await client.discover()).source).toBe("cache");

    client.setHeaders({ Authorization: "Bearer token-alice" });
    expect((await client.readResource(uri)).source).toBe("cache");
  });
});

describe("edgemcp client against the Worker: errors", () => {
  it("reports an unknown tool as a JSON-RPC error with its code, data and status", async () => {
    const client = await connect(everythingUrl());
    const call = client.callTool("no_such_tool");
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({
      kind: "rpc",
      code: -32602,
      data: { name: "no_such_tool" },
      status: 200,
      era: "modern",
      method: "tools/call",
    });
  });

  it("reports arguments that fail the input schema as an isError result (SEP-1303)", async () => {
    const client = await connect(everythingUrl());
    const { result } = await client.callTool("add_numbers", { a: "two", b: 3 });
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringMatching(/arguments\.a/) }],
    });
  });

  it("reports an unknown method as -32601 with HTTP status 404", async () => {
    const client = await connect(everythingUrl());
    await expect(client.request("nope/nothing")).rejects.toMatchObject({
      kind: "rpc",
      code: -32601,
      status: 404,
    });
  });

  it("reports a refused bearer token as an HTTP 401 failure, without falling back", async () => {
    const wire = wireRecorder();
    const attempt = connect(everythingUrl(), {
      headers: { Authorization: "Bearer not-a-token" },
      onWire: wire.onWire,
    });
    await expect(attempt).rejects.toMatchObject({ kind: "http", status: 401 });
    expect(wire.methods()).toEqual(["server/discover"]);
  });

  it("reports a 404 without a JSON-RPC body as an HTTP failure after trying both eras", async () => {
    const wire = wireRecorder();
    const attempt = connect(serverUrl("no-such-server"), { onWire: wire.onWire });
    await expect(attempt).rejects.toMatchObject({
      kind: "http",
      status: 404,
      era: "legacy",
      method: "initialize",
    });
    expect(wire.methods()).toEqual(["server/discover", "initialize"]);
  });

  it("reports an unreachable endpoint as a network failure", async () => {
    for (const url of ["http://127.0.0.1:9/mcp", "http://127.0.0.1:1/mcp"]) {
      const failure = await connect(url).catch((e: unknown) => e);
      expect(failure).toMatchObject({
        kind: "network",
        method: "server/discover",
        cause: expect.anything(),
      });
      expect((failure as Error).message.startsWith(`Could not reach ${url}: `)).toBe(true);
    }
  });
});
