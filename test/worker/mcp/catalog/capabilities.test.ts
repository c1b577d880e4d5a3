import { describe, expect, it } from "vitest";
import { defineServer, prompt, resource, tool } from "../../../../worker/mcp/index.ts";
import { mcpRequest } from "../../../support/mcp-request.ts";
import { serve } from "../../custom-server.ts";
const request = (method: string, params: Record<string, unknown> = {}) =>
  mcpRequest(method, params, { server: "t" });

describe("capabilities follow what a server defines", () => {
  const server = serve(
    defineServer({
      name: "tools-only",
      version: "1.0.0",
      tools: [tool({ name: "t", description: "T", run: () => "ok" })],
    }),
  );

  it("advertises only tools", async () => {
    const { final } = await server.send(request("server/discover"), "server/discover");
    expect(final?.result.capabilities).toEqual({ tools: {} });
  });

  it.each(["prompts/list", "resources/list", "resources/templates/list", "completion/complete"])(
    "answers %s with -32601 since the capability is not offered",
    async (method) => {
      const reply = await server.send(request(method), method);
      expect(reply.status).toBe(404);
      expect(reply.final?.error.code).toBe(-32601);
    },
  );
});

describe("the methods a server has come with its prompts and resources", () => {
  const server = serve(
    defineServer({
      name: "with-prompts",
      version: "1.0.0",
      prompts: [prompt({ name: "p", get: () => "hi" })],
    }),
  );
  const withCompleter = serve(
    defineServer({
      name: "with-completer",
      version: "1.0.0",
      prompts: [
        prompt({ name: "p", get: () => "hi", complete: { topic: (value) => [`${value}!`] } }),
      ],
      resources: [resource({ uri: "a://b", name: "b", read: () => "b" })],
    }),
  );

  it("a server with prompts answers prompts/list and prompts/get", async () => {
    const list = await server.send(request("prompts/list"), "prompts/list");
    expect(list.final?.result.prompts).toEqual([{ name: "p" }]);
    const got = await server.send(request("prompts/get", { name: "p" }), "prompts/get");
    expect(got.final?.result.messages).toEqual([
      { role: "user", content: { type: "text", text: "hi" } },
    ]);
  });

  it.each(["resources/list", "resources/read", "completion/complete"])(
    "a server with prompts and no completers or resources answers %s with -32601",
    async (method) => {
      const reply = await server.send(request(method), method);
      expect(reply.final?.error.code).toBe(-32601);
    },
  );

  it("a prompt with completers brings completion/complete, a resource resources/read", async () => {
    const params = {
      ref: { type: "ref/prompt", name: "p" },
      argument: { name: "topic", value: "x" },
    };
    const completion = await withCompleter.send(
      request("completion/complete", params),
      "completion/complete",
    );
    expect(completion.final?.result.completion).toEqual({
      values: ["x!"],
      total: 1,
      hasMore: false,
    });
    const read = await withCompleter.send(
      request("resources/read", { uri: "a://b" }),
      "resources/read",
    );
    expect(read.final?.result.contents).toEqual([
      { uri: "a://b", mimeType: "text/plain", text: "b" },
    ]);
  });
});

describe("cache hints follow what a server defines", () => {
  const server = serve(
    defineServer({
      name: "cached",
      version: "1.0.0",
      cache: { ttlMs: 5_000, cacheScope: "private", tools: { ttlMs: 7_000, cacheScope: "public" } },
      tools: [tool({ name: "t", description: "T", run: () => "ok" })],
      resources: [resource({ uri: "a://b", name: "b", read: () => "b" })],
    }),
  );

  it("gives a list its own hint over the server's, and the others the server's", async () => {
    const tools = await server.send(request("tools/list"), "tools/list");
    expect(tools.final?.result).toMatchObject({ ttlMs: 7_000, cacheScope: "public" });
    const listed = await server.send(request("resources/list"), "resources/list");
    expect(listed.final?.result).toMatchObject({ ttlMs: 5_000, cacheScope: "private" });
    const discover = await server.send(request("server/discover"), "server/discover");
    expect(discover.final?.result).toMatchObject({ ttlMs: 5_000, cacheScope: "private" });
  });
});
