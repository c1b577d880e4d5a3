import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eventually } from "../../support/eventually.ts";
import { CLIENT_INFO, serverUrl, textOf, uniqueLabel } from "../support/clients.ts";

describe("official v1 client (@modelcontextprotocol/sdk 1.32.2, initialize 2025-11-25)", () => {
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  const errors: Error[] = [];
  // The statuses of the GETs the transport sends: it opens one for a server stream after
  // initialize and does not wait for it.
  const gets: Promise<number>[] = [];
  // The JSON-RPC method of each POST, with the Mcp-Session-Id it carried.
  const posts: { method: unknown; sessionId: string | null }[] = [];
  beforeAll(async () => {
    // connectV1, with a fetch that records those GETs and every POST.
    client = new Client(CLIENT_INFO, { capabilities: {} });
    client.onerror = (error) => errors.push(error);
    transport = new StreamableHTTPClientTransport(serverUrl(), {
      fetch: (url, init) => {
        const answer = fetch(url, init);
        if (init?.method === "POST" && typeof init.body === "string")
          posts.push({
            method: JSON.parse(init.body).method,
            sessionId: new Headers(init.headers).get("Mcp-Session-Id"),
          });
        if (init?.method === "GET")
          gets.push(
            answer.then(
              (response) => response.status,
              () => -1,
            ),
          );
        return answer;
      },
    });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client.close();
  });

  it("initializes at 2025-11-25, given a session id it sends on every later request", () => {
    expect(transport.protocolVersion).toBe("2025-11-25");
    // It holds no state on the server: it scopes this client's cancellations.
    expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{22}\.[eustr]*$/);
    expect(posts.map((post) => post.method)).toEqual(["initialize", "notifications/initialized"]);
    expect(posts.map((post) => post.sessionId)).toEqual([null, transport.sessionId]);
    expect(client.getServerVersion()).toMatchObject({ name: "edgemcp-everything" });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
  });

  it("connects without a transport error (its GET for a server stream gets a quiet 405)", async () => {
    await vi.waitFor(() => expect(gets).toHaveLength(1));
    expect(await gets[0]).toBe(405);
    // The transport handles that answer as it arrives; one round trip later it surely has.
    expect(await client.ping()).toEqual({});
    expect(errors.map((error) => error.message)).toEqual([]);
  });

  it("lists tools with object output schemas only", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["test_simple_text", "test_x_mcp_header", "add_numbers"]),
    );
    expect(tools.find((tool) => tool.name === "add_numbers")?.outputSchema).toMatchObject({
      type: "object",
    });
    // An array output schema would break every 2025 client's tools/list, so it is left out.
    expect(tools.find((tool) => tool.name === "list_primes")).not.toHaveProperty("outputSchema");
  });

  it("receives text, image and audio content", async () => {
    const text = await client.callTool({ name: "test_simple_text" });
    expect(textOf(text)).toBe("This is a simple text response for testing.");
    const image = await client.callTool({ name: "test_image_content", arguments: {} });
    expect(image.content).toEqual([expect.objectContaining({ type: "image" })]);
    const audio = await client.callTool({ name: "test_audio_content", arguments: {} });
    expect(audio.content).toEqual([
      expect.objectContaining({ type: "audio", mimeType: "audio/wav" }),
    ]);
  });

  it("receives object structured content for a tool with an object output schema", async () => {
    const result = await client.callTool({ name: "add_numbers", arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(JSON.parse(textOf(result))).toEqual({ sum: 5 });
  });

  it("receives only the text of an array result, which 2025 cannot carry as structured", async () => {
    const result = await client.callTool({ name: "list_primes", arguments: { below: 20 } });
    expect(result).not.toHaveProperty("structuredContent");
    expect(JSON.parse(textOf(result))).toEqual([2, 3, 5, 7, 11, 13, 17, 19]);
  });

  it("receives a tool's own failure as an isError result", async () => {
    const result = await client.callTool({ name: "test_error_handling", arguments: {} });
    expect(result.isError).toBe(true);
  });

  it("receives arguments that fail the input schema as an isError result naming the field (SEP-1303)", async () => {
    const result = await client.callTool({ name: "add_numbers", arguments: { a: "two", b: 3 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Invalid arguments: arguments\.a: Invalid input: expected number/,
    );
  });

  it("rejects an unknown tool with -32602", async () => {
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });

  it("reports progress through onprogress", async () => {
    const steps: number[] = [];
    await client.callTool(
      { name: "test_slow_counter", arguments: { steps: 3, delayMs: 20 } },
      undefined,
      { onprogress: ({ progress }) => steps.push(progress) },
    );
    expect(steps).toEqual([1, 2, 3]);
  });

  it("receives the log messages a tool sends while it runs", async () => {
    const messages: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      messages.push(params.data);
    });
    await client.setLoggingLevel("debug");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(messages).toEqual([
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
  });

  it("cancels its own call, which stops on the server, and keeps serving afterwards", async () => {
    // v1 cancels by POSTing notifications/cancelled; the call's stream keeps running meanwhile,
    // so only the cancel (scoped by the session id) can stop the tool.
    const controller = new AbortController();
    const label = uniqueLabel("v1");
    const call = client.callTool(
      { name: "test_slow_counter", arguments: { steps: 100, delayMs: 50, label } },
      undefined,
      { signal: controller.signal, onprogress: () => controller.abort("stop") },
    );
    await expect(call).rejects.toBeInstanceOf(McpError);
    expect(posts.findLast((post) => post.method === "notifications/cancelled")?.sessionId).toBe(
      transport.sessionId,
    );
    const status = await eventually(
      async () => {
        const text = textOf(
          await client.callTool({ name: "test_abort_status", arguments: { label } }),
        );
        return text.startsWith("aborted") ? text : undefined;
      },
      { intervalMs: 20, what: `an abort of ${label}` },
    );
    expect(status).toMatch(new RegExp(`^aborted: ${label} at step \\d+ `));
    expect(await client.ping()).toEqual({});
    const after = await client.callTool({ name: "add_numbers", arguments: { a: 1, b: 1 } });
    expect(after.structuredContent).toEqual({ sum: 2 });
  });

  it("pages resources/list, one page per call, 28 resources in all", async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      uris.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined && pages < 10);
    expect(pages).toBe(3);
    expect(uris).toHaveLength(28);
    expect(new Set(uris).size).toBe(28);
  });

  it("reads a text resource and a template resource", async () => {
    const text = await client.readResource({ uri: "test://static-text" });
    expect(text.contents).toEqual([expect.objectContaining({ uri: "test://static-text" })]);
    const item = await client.readResource({ uri: "test://items/7" });
    expect(item.contents).toEqual([expect.objectContaining({ text: "Item number 7" })]);
  });

  it("rejects a resource that does not exist with the 2025 code -32002", async () => {
    const read = client.readResource({ uri: "test://items/99" });
    await expect(read).rejects.toBeInstanceOf(McpError);
    await expect(read).rejects.toMatchObject({ code: -32002 });
  });

  it("lists the resource templates and the prompts", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      "test://template/{id}/data",
      "test://items/{n}",
    ]);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain("test_prompt_with_arguments");
  });

  it("gets a prompt with arguments", async () => {
    const result = await client.getPrompt({
      name: "test_prompt_with_arguments",
      arguments: { arg1: "one", arg2: "two" },
    });
    expect(result.messages).toEqual([
      {
        role: "user",
        content: { type: "text", text: "Prompt with arguments: arg1='one', arg2='two'" },
      },
    ]);
  });

  it("completes a prompt argument", async () => {
    const { completion } = await client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "te" },
    });
    expect(completion.values).toEqual(["test-alpha", "test-beta"]);
  });

  it("answers ping, logging/setLevel and resource (un)subscription with an empty result", async () => {
    expect(await client.ping()).toEqual({});
    expect(await client.setLoggingLevel("info")).toEqual({});
    expect(await client.subscribeResource({ uri: "test://watched-resource" })).toEqual({});
    expect(await client.unsubscribeResource({ uri: "test://watched-resource" })).toEqual({});
  });
});
