import { ProtocolErrorCode, type Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectV2, MODERN_MODES, textOf } from "../support/clients.ts";
import { RED_PIXEL_PNG } from "../support/fixtures.ts";

const STATIC_URIS = ["test://static-text", "test://static-binary", "test://watched-resource"];
const ITEM_URIS = Array.from({ length: 25 }, (_, i) => `test://items/${i + 1}`);

describe.each(MODERN_MODES)("official v2 client, %s: discovery and lists", (_label, mode) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectV2(mode);
  });
  afterAll(async () => {
    await client.close();
  });

  it("negotiates 2026-07-28 through server/discover, without initialize", () => {
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const discover = client.getDiscoverResult();
    expect(discover?.supportedVersions).toContain("2026-07-28");
    expect(discover?.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(discover?.capabilities.completions).toBeDefined();
    expect(discover?._meta?.["io.modelcontextprotocol/serverInfo"]).toMatchObject({
      name: "edgemcp-everything",
      version: "0.1.0",
    });
  });

  it("lists every tool, keeping the one whose x-mcp-header declaration it validates", async () => {
    const { tools, ttlMs, cacheScope } = await client.listTools(undefined, { cacheMode: "bypass" });
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        "test_simple_text",
        "test_x_mcp_header",
        "test_image_content",
        "test_tool_with_progress",
        "test_error_handling",
        "add_numbers",
        "list_primes",
        "test_slow_counter",
        "test_abort_status",
      ]),
    );
    expect({ ttlMs, cacheScope }).toEqual({ ttlMs: 60_000, cacheScope: "public" });
    const primes = tools.find((tool) => tool.name === "list_primes");
    expect(primes?.outputSchema).toMatchObject({ type: "array" });
  });

  it("walks every page of resources/list into 28 resources", async () => {
    const { resources } = await client.listResources(undefined, { cacheMode: "bypass" });
    const uris = resources.map((resource) => resource.uri);
    expect(uris).toHaveLength(28);
    expect(new Set(uris).size).toBe(28);
    expect(uris).toEqual([...STATIC_URIS, ...ITEM_URIS]);
  });

  it("pages resources 10 at a time, with a cursor until the last page", async () => {
    const first = await client.request({ method: "resources/list", params: {} });
    expect(first.resources).toHaveLength(10);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.listResources({ cursor: first.nextCursor });
    expect(second.resources.map((resource) => resource.uri)).toEqual(ITEM_URIS.slice(7, 17));
    expect(second.nextCursor).toEqual(expect.any(String));
    const last = await client.listResources({ cursor: second.nextCursor });
    expect(last.resources.map((resource) => resource.uri)).toEqual(ITEM_URIS.slice(17));
    expect(last.nextCursor).toBeUndefined();
  });

  it("lists both resource templates", async () => {
    const { resourceTemplates } = await client.listResourceTemplates(undefined, {
      cacheMode: "bypass",
    });
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: "test://template/{id}/data", name: "template" }),
      expect.objectContaining({ uriTemplate: "test://items/{n}", name: "item" }),
    ]);
  });

  it("lists the prompts with their arguments", async () => {
    const { prompts } = await client.listPrompts(undefined, { cacheMode: "bypass" });
    expect(prompts.map((prompt) => prompt.name)).toEqual(
      expect.arrayContaining([
        "test_simple_prompt",
        "test_prompt_with_arguments",
        "test_prompt_with_embedded_resource",
        "test_prompt_with_image",
      ]),
    );
    expect(prompts.find((p) => p.name === "test_prompt_with_arguments")?.arguments).toEqual([
      expect.objectContaining({ name: "arg1", required: true }),
      expect.objectContaining({ name: "arg2", required: true }),
    ]);
  });

  it("reads a text resource", async () => {
    const result = await client.readResource(
      { uri: "test://static-text" },
      { cacheMode: "bypass" },
    );
    expect(result.contents).toEqual([
      {
        uri: "test://static-text",
        mimeType: "text/plain",
        text: "This is the content of the static text resource.",
      },
    ]);
    expect(result.ttlMs).toBe(60_000);
  });

  it("reads a binary resource as a base64 blob", async () => {
    const result = await client.readResource({ uri: "test://static-binary" });
    expect(result.contents).toEqual([
      { uri: "test://static-binary", mimeType: "image/png", blob: RED_PIXEL_PNG },
    ]);
  });

  it("reads a resource through a template, with the variable filled in", async () => {
    const result = await client.readResource({ uri: "test://template/42/data" });
    const [content] = result.contents;
    expect(content).toMatchObject({ uri: "test://template/42/data", mimeType: "application/json" });
    expect(content && "text" in content ? JSON.parse(content.text) : undefined).toEqual({
      id: "42",
      templateTest: true,
      data: "Data for ID: 42",
    });
  });

  it("reads a listed item through its template", async () => {
    const result = await client.readResource({ uri: "test://items/7" });
    expect(result.contents).toEqual([
      { uri: "test://items/7", mimeType: "text/plain", text: "Item number 7" },
    ]);
  });

  it("rejects a resource that does not exist with -32602 naming the uri", async () => {
    await expect(client.readResource({ uri: "test://items/99" })).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      data: { uri: "test://items/99" },
    });
  });

  it("gets a prompt without arguments", async () => {
    const result = await client.getPrompt({ name: "test_simple_prompt" });
    expect(result.messages).toEqual([
      { role: "user", content: { type: "text", text: "This is a simple prompt for testing." } },
    ]);
  });

  it("gets a prompt with its arguments substituted", async () => {
    const result = await client.getPrompt({
      name: "test_prompt_with_arguments",
      arguments: { arg1: "one", arg2: "two" },
    });
    expect(textOf({ content: result.messages.map((m) => m.content) })).toBe(
      "Prompt with arguments: arg1='one', arg2='two'",
    );
  });

  it("gets a prompt that embeds a resource", async () => {
    const result = await client.getPrompt({
      name: "test_prompt_with_embedded_resource",
      arguments: { resourceUri: "test://static-text" },
    });
    expect(result.messages[0]?.content).toMatchObject({
      type: "resource",
      resource: { uri: "test://static-text", mimeType: "text/plain" },
    });
  });

  it("gets a prompt that carries an image", async () => {
    const result = await client.getPrompt({ name: "test_prompt_with_image" });
    expect(result.messages[0]?.content).toEqual({
      type: "image",
      data: RED_PIXEL_PNG,
      mimeType: "image/png",
    });
  });

  it("completes a prompt argument from its prefix", async () => {
    const { completion } = await client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "te" },
    });
    expect(completion.values).toEqual(["test-alpha", "test-beta"]);
  });

  it("completes a resource template variable from its prefix", async () => {
    const { completion } = await client.complete({
      ref: { type: "ref/resource", uri: "test://template/{id}/data" },
      argument: { name: "id", value: "4" },
    });
    expect(completion.values).toEqual(["456"]);
  });
});
