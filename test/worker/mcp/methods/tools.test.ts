import { describe, expect, it } from "vitest";
import { defineServer, tool, ForwardedResult } from "../../../../worker/mcp/index.ts";
import { legacyRequest, mcpRequest } from "../../../support/mcp-request.ts";
import { call, send } from "../../call.ts";
import { serve } from "../../custom-server.ts";

describe("tools/list", () => {
  it("lists every tool in definition order with schemas, descriptions and cache hints", async () => {
    const { final } = await call("tools/list");
    const names = final?.result.tools.map((t: { name: string }) => t.name);
    expect(names.slice(0, 2)).toEqual(["test_simple_text", "test_x_mcp_header"]);
    expect(names).toContain("add_numbers");
    for (const tool of final?.result.tools ?? []) expect(tool.description).toBeTruthy();
    expect(final?.result).toMatchObject({ ttlMs: 60000, cacheScope: "public" });
    expect(final?.result.nextCursor).toBeUndefined();
  });

  it("derives JSON Schemas from zod, keeping x-mcp-header and output schemas", async () => {
    const { final } = await call("tools/list");
    const byName = new Map(final?.result.tools.map((t: { name: string }) => [t.name, t]));
    expect(byName.get("test_x_mcp_header")).toMatchObject({
      inputSchema: {
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" } },
        required: ["region"],
      },
    });
    expect(byName.get("add_numbers")).toMatchObject({
      outputSchema: { type: "object", properties: { sum: { type: "number" } } },
      annotations: { readOnlyHint: true },
    });
    expect(byName.get("list_primes")).toMatchObject({ outputSchema: { type: "array" } });
    expect(byName.get("json_schema_2020_12_tool")).toMatchObject({
      inputSchema: { $schema: "https://json-schema.org/draft/2020-12/schema" },
    });
  });

  it("gives the same list on every call", async () => {
    const first = await call("tools/list");
    const second = await call("tools/list");
    expect(second.final?.result.tools).toEqual(first.final?.result.tools);
  });
});

describe("tools/call", () => {
  it("accepts a call without arguments", async () => {
    const { final } = await call("tools/call", { name: "test_simple_text" });
    expect(final?.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "This is a simple text response for testing." }],
    });
  });

  it("returns image, audio and embedded resource blocks", async () => {
    const image = await call("tools/call", { name: "test_image_content", arguments: {} });
    expect(image.final?.result.content[0]).toMatchObject({ type: "image", mimeType: "image/png" });
    const audio = await call("tools/call", { name: "test_audio_content", arguments: {} });
    expect(audio.final?.result.content[0]).toMatchObject({ type: "audio", mimeType: "audio/wav" });
    const mixed = await call("tools/call", { name: "test_multiple_content_types", arguments: {} });
    expect(mixed.final?.result.content.map((c: { type: string }) => c.type)).toEqual([
      "text",
      "image",
      "resource",
    ]);
  });

  it("returns structured content with a JSON text block when the tool has an output schema", async () => {
    const { final } = await call("tools/call", { name: "add_numbers", arguments: { a: 2, b: 3 } });
    expect(final?.result).toMatchObject({
      structuredContent: { sum: 5 },
      content: [{ type: "text", text: '{"sum":5}' }],
    });
  });

  it("allows structured content that is not an object", async () => {
    const { final } = await call("tools/call", { name: "list_primes", arguments: { below: 12 } });
    expect(final?.result.structuredContent).toEqual([2, 3, 5, 7, 11]);
  });

  it("answers an unknown tool with -32602 that points at tools/list", async () => {
    const { status, final } = await call("tools/call", { name: "nope" });
    expect(status).toBe(200);
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Unknown tool "nope".*tools\/list/),
      data: { name: "nope" },
    });
  });

  it("answers invalid arguments with an isError result naming the field (SEP-1303)", async () => {
    const { status, final } = await call("tools/call", {
      name: "add_numbers",
      arguments: { a: "two", b: 3 },
    });
    expect(status).toBe(200);
    expect(final?.result).toMatchObject({
      resultType: "complete",
      content: [
        {
          type: "text",
          text: "Invalid arguments: arguments.a: Invalid input: expected number, received string. Call the tool again with arguments that match its inputSchema.",
        },
      ],
      isError: true,
    });
  });

  it("answers invalid arguments of a 2025 client with an isError result too", async () => {
    const { status, final } = await send(
      legacyRequest("tools/call", { name: "add_numbers", arguments: { b: 3 } }),
      "tools/call",
      "2025",
    );
    expect(status).toBe(200);
    expect(final?.result).toMatchObject({
      isError: true,
      content: [
        { type: "text", text: expect.stringMatching(/^Invalid arguments: arguments\.a: /) },
      ],
    });
  });

  it("rejects arguments against the zod input of a tool that advertises a hand-written schema", async () => {
    const { final } = await call("tools/call", {
      name: "json_schema_2020_12_tool",
      arguments: { name: "Ann" },
    });
    expect(final?.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringMatching(/give a phone or an email/) }],
    });
  });

  it("runs a tool that advertises a hand-written schema when its zod input accepts the arguments", async () => {
    const { final } = await call("tools/call", {
      name: "json_schema_2020_12_tool",
      arguments: { name: "Ann", email: "a@b.c" },
    });
    expect(final?.result.content[0].text).toBe('Received: {"name":"Ann","email":"a@b.c"}');
  });

  it("answers malformed params with -32602", async () => {
    const { final } = await call("tools/call", { name: 42 });
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/params.name/),
    });
  });

  it("reports a tool's own failure as an isError result the model can read", async () => {
    const { final } = await call("tools/call", { name: "test_error_handling", arguments: {} });
    expect(final?.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "This tool intentionally returns an error for testing" }],
    });
  });

  it("returns large results intact", async () => {
    const { final } = await call("tools/call", {
      name: "test_large_text",
      arguments: { bytes: 1024 * 1024 },
    });
    expect(final?.result.content[0].text).toHaveLength(1024 * 1024);
  });
});

describe("forwarded tool results", () => {
  const forwarded = {
    resultType: "complete",
    ttlMs: 5,
    cacheScope: "private",
    content: [{ type: "text", text: "42" }],
    structuredContent: 42,
  };
  const server = serve(
    defineServer({
      name: "forwarding",
      version: "1",
      tools: [tool({ name: "relay", run: () => new ForwardedResult(forwarded) })],
    }),
  );

  it("reach 2025 clients without 2026 fields or non-object structured content", async () => {
    const { final } = await server.send(
      legacyRequest("tools/call", { name: "relay", arguments: {} }),
      "tools/call",
      "2025",
    );
    expect(final?.result).toEqual({ content: [{ type: "text", text: "42" }] });
  });

  it("reach 2026 clients as they came, and the forwarded object is left as it was", async () => {
    const { final } = await server.send(
      mcpRequest("tools/call", { name: "relay", arguments: {} }),
      "tools/call",
    );
    expect(final?.result).toMatchObject({
      resultType: "complete",
      ttlMs: 5,
      structuredContent: 42,
    });
    expect(forwarded).toMatchObject({ resultType: "complete", ttlMs: 5, structuredContent: 42 });
  });
});
