import {
  MissingRequiredClientCapabilityError,
  ProtocolErrorCode,
  type Client,
  type LoggingMessageNotification,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectV2, MODERN_MODES, textOf } from "../support/clients.ts";

const LOG_LEVEL = "io.modelcontextprotocol/logLevel";

describe.each(MODERN_MODES)("official v2 client, %s: per-request rules", (_label, mode) => {
  let client: Client;
  let sampling: Client;
  const logs: Array<LoggingMessageNotification["params"]> = [];
  beforeAll(async () => {
    client = await connectV2(mode);
    client.setNotificationHandler("notifications/message", ({ params }) => {
      logs.push(params);
    });
    sampling = await connectV2(mode, { capabilities: { sampling: {} } });
  });
  afterAll(async () => {
    await Promise.all([client.close(), sampling.close()]);
  });

  it("sends log messages only to a request that set a log level", async () => {
    logs.length = 0;
    await client.callTool({ name: "test_logging_tool", arguments: {} });
    expect(logs).toEqual([]);
    await client.callTool({
      name: "test_logging_tool",
      arguments: {},
      _meta: { [LOG_LEVEL]: "info" },
    });
    expect(logs).toEqual([{ level: "info", data: "Logging evaluated" }]);
  });

  it("drops log messages below the request's log level", async () => {
    logs.length = 0;
    const result = await client.callTool({
      name: "test_tool_with_logging",
      arguments: {},
      _meta: { [LOG_LEVEL]: "warning" },
    });
    expect(textOf(result)).toBe("Tool with logging executed successfully");
    expect(logs).toEqual([]);
  });

  it("refuses a tool that needs an undeclared client capability with -32021", async () => {
    const call = client.callTool({ name: "test_missing_capability", arguments: {} });
    await expect(call).rejects.toBeInstanceOf(MissingRequiredClientCapabilityError);
    await expect(call).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  it("runs that tool for a client that declares the capability", async () => {
    const result = await sampling.callTool({ name: "test_missing_capability", arguments: {} });
    expect(textOf(result)).toBe("Success");
  });

  it("rejects a cursor it did not issue with -32602", async () => {
    await expect(client.listResources({ cursor: "not-a-cursor" })).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
    });
  });

  it("rejects an unknown prompt and a missing prompt argument with -32602", async () => {
    await expect(client.getPrompt({ name: "no_such_prompt" })).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
    });
    await expect(
      client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "only" } }),
    ).rejects.toMatchObject({ code: ProtocolErrorCode.InvalidParams });
  });

  it("answers concurrent calls each with its own result", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        client.callTool({ name: "add_numbers", arguments: { a: i, b: 100 } }),
      ),
    );
    expect(results.map((result) => result.structuredContent)).toEqual(
      Array.from({ length: 10 }, (_, i) => ({ sum: i + 100 })),
    );
  });

  it("streams a 1 MB text result intact", async () => {
    const result = await client.callTool({
      name: "test_large_text",
      arguments: { bytes: 1024 * 1024 },
    });
    expect(textOf(result)).toBe("x".repeat(1024 * 1024));
  });
});
