import { ProtocolErrorCode, type Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectV2, MODERN_MODES, textOf, uniqueLabel } from "../support/clients.ts";
import { MINIMAL_WAV, RED_PIXEL_PNG } from "../support/fixtures.ts";
import { abortStatus } from "../hub/support.ts";
import { methodOf, wireLog } from "../support/wire-log.ts";

/** How a 2026-07-28 client must send an unsafe header value. */
const base64Sentinel = (value: string) =>
  `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;

describe.each(MODERN_MODES)("official v2 client, %s: tools", (_label, mode) => {
  let client: Client;
  const wire = wireLog();
  beforeAll(async () => {
    client = await connectV2(mode, { fetch: wire.fetch });
  });
  afterAll(async () => {
    await client.close();
  });

  it("receives text content", async () => {
    const result = await client.callTool({ name: "test_simple_text" });
    expect(result.content).toEqual([
      { type: "text", text: "This is a simple text response for testing." },
    ]);
  });

  it("receives image, audio and embedded resource content", async () => {
    const image = await client.callTool({ name: "test_image_content", arguments: {} });
    expect(image.content).toEqual([{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }]);
    const audio = await client.callTool({ name: "test_audio_content", arguments: {} });
    expect(audio.content).toEqual([{ type: "audio", data: MINIMAL_WAV, mimeType: "audio/wav" }]);
    const embedded = await client.callTool({ name: "test_embedded_resource", arguments: {} });
    expect(embedded.content).toEqual([
      {
        type: "resource",
        resource: {
          uri: "test://embedded-resource",
          mimeType: "text/plain",
          text: "This is an embedded resource content.",
        },
      },
    ]);
  });

  it("receives mixed content in order", async () => {
    const result = await client.callTool({ name: "test_multiple_content_types", arguments: {} });
    expect(result.content.map((block) => block.type)).toEqual(["text", "image", "resource"]);
  });

  it("receives an object as structured content, validated against the output schema", async () => {
    await client.listTools();
    const result = await client.callTool({ name: "add_numbers", arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(JSON.parse(textOf(result))).toEqual({ sum: 5 });
  });

  it("receives an array as structured content", async () => {
    await client.listTools();
    const result = await client.callTool({ name: "list_primes", arguments: { below: 20 } });
    expect(result.structuredContent).toEqual([2, 3, 5, 7, 11, 13, 17, 19]);
  });

  it("mirrors x-mcp-header arguments as Mcp-Param-* headers, base64 where unsafe", async () => {
    await client.listTools();
    wire.exchanges.length = 0;
    const spaced = await client.callTool({
      name: "test_x_mcp_header",
      arguments: { region: " eu ", priority: 3, urgent: true },
    });
    expect(textOf(spaced)).toBe("region= eu  priority=3 urgent=true");
    const accented = await client.callTool({
      name: "test_x_mcp_header",
      arguments: { region: "Zürich" },
    });
    expect(textOf(accented)).toBe("region=Zürich priority=- urgent=-");

    const [first, second] = wire.exchanges;
    expect(first?.status).toBe(200);
    expect(first?.headers.get("Mcp-Param-Region")).toBe(base64Sentinel(" eu "));
    expect(first?.headers.get("Mcp-Param-Priority")).toBe("3");
    expect(first?.headers.get("Mcp-Param-Urgent")).toBe("true");
    expect(second?.headers.get("Mcp-Param-Region")).toBe(base64Sentinel("Zürich"));
    expect(second?.headers.has("Mcp-Param-Priority")).toBe(false);
  });

  it("reports each progress step of a slow call, in order", async () => {
    const steps: Array<{ progress: number; total?: number }> = [];
    const result = await client.callTool(
      { name: "test_slow_counter", arguments: { steps: 3, delayMs: 20 } },
      { onprogress: ({ progress, total }) => steps.push({ progress, total }) },
    );
    expect(textOf(result)).toBe("Counted to 3");
    expect(steps).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });

  it("reports the conformance progress fixture's 0, 50 and 100", async () => {
    const steps: number[] = [];
    const result = await client.callTool(
      { name: "test_tool_with_progress", arguments: {} },
      { onprogress: ({ progress }) => steps.push(progress) },
    );
    expect(steps).toEqual([0, 50, 100]);
    // The fixture answers with the progress token, which this client sets to the request id.
    expect(textOf(result)).toMatch(/^\d+$/);
  });

  it("cancels a running call by closing its stream", async () => {
    const label = uniqueLabel("v2");
    const controller = new AbortController();
    const call = client.callTool(
      { name: "test_slow_counter", arguments: { steps: 50, delayMs: 100, label } },
      { signal: controller.signal, onprogress: () => controller.abort() },
    );
    await expect(call).rejects.toThrow(/abort/i);

    const status = await abortStatus(client, "test_abort_status", label);
    expect(status).toMatch(new RegExp(`^aborted: ${label} at step \\d+ \\(t=\\d+\\)$`));
    expect(Number(/at step (\d+)/.exec(status)?.[1])).toBeLessThan(50);
  });

  it("rejects an unknown tool with -32602", async () => {
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
    });
  });

  it("receives a tool's own failure as an isError result", async () => {
    const result = await client.callTool({ name: "test_error_handling", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("This tool intentionally returns an error for testing");
  });

  it("receives arguments that fail the input schema as an isError result naming the field (SEP-1303)", async () => {
    const result = await client.callTool({ name: "add_numbers", arguments: { a: "two", b: 3 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Invalid arguments: arguments\.a: Invalid input: expected number/,
    );
  });
});

describe("official v2 client pinned to 2026-07-28, before it has listed tools", () => {
  it("recovers from the -32020 refusal of a call without Mcp-Param headers by relisting", async () => {
    const wire = wireLog();
    const client = await connectV2({ pin: "2026-07-28" }, { fetch: wire.fetch });
    try {
      wire.exchanges.length = 0;
      const result = await client.callTool({
        name: "test_x_mcp_header",
        arguments: { region: "eu" },
      });
      expect(textOf(result)).toBe("region=eu priority=- urgent=-");
      expect(wire.exchanges.map((e) => [methodOf(e), e.status])).toEqual([
        ["tools/call", 400],
        ["tools/list", 200],
        ["tools/call", 200],
      ]);
      expect(wire.exchanges[0]?.reply).toMatchObject({ error: { code: -32020 } });
      expect(wire.exchanges[2]?.headers.get("Mcp-Param-Region")).toBe("eu");
    } finally {
      await client.close();
    }
  });
});
