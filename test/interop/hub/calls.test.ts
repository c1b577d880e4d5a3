import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverUrl, textOf, uniqueLabel } from "../support/clients.ts";
import { abortStatus, connectPinned, sdkServerUrl } from "./support.ts";

type Step = { progress: number; total?: number; message?: string };

describe("official v2 client pinned to 2026-07-28: calls through the hub", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectPinned();
    // Cached tool definitions let the client check structured content against output schemas.
    await client.listTools();
  });
  afterAll(async () => {
    await client.close();
  });

  it("calls everything__add_numbers and receives structured content that fits its schema", async () => {
    const result = await client.callTool({
      name: "everything__add_numbers",
      arguments: { a: 2, b: 3 },
    });
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(JSON.parse(textOf(result))).toEqual({ sum: 5 });
  });

  it("answers arguments the upstream refuses as an isError result naming the field, not the upstream's tool", async () => {
    const result = await client.callTool({
      name: "everything__add_numbers",
      arguments: { a: "two", b: 3 },
    });
    // SEP-1303: the model sees what to correct, as a tool result.
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Invalid arguments: arguments\.a: /);
    expect(textOf(result)).not.toMatch(/(?<!everything__)add_numbers/);
  });

  it("calls analytics__execute_query and receives the rows", async () => {
    const result = await client.callTool({
      name: "analytics__execute_query",
      arguments: { sql: "SELECT id FROM users ORDER BY id LIMIT 3" },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      columns: ["id"],
      rows: [{ id: 1 }, { id: 2 }, { id: 3 }],
      row_count: 3,
    });
  });

  it("calls notes__search_notes and receives links the hub can read back", async () => {
    const result = await client.callTool({
      name: "notes__search_notes",
      arguments: { query: "Release process" },
    });
    const link = result.content.find((block) => block.type === "resource_link");
    expect(link).toMatchObject({
      type: "resource_link",
      uri: expect.stringMatching(/^notes:\/\//),
    });
    const uri = link?.type === "resource_link" ? link.uri : "";
    const read = await client.readResource({ uri });
    expect(read.contents[0]).toMatchObject({ uri, text: expect.stringContaining("# Release") });
  });

  it("calls ops__run_build and receives its structured result", async () => {
    const result = await client.callTool({
      name: "ops__run_build",
      arguments: { project: "demo", steps: 2, step_ms: 5 },
    });
    expect(result.structuredContent).toMatchObject({ project: "demo", steps: 2 });
  });

  it("calls ext__echo on the external SDK-built server", async () => {
    const result = await client.callTool({ name: "ext__echo", arguments: { text: "over HTTP" } });
    expect(result.content).toEqual([{ type: "text", text: "over HTTP" }]);
  });

  it("relays an in-process upstream's progress, every step in order with its message", async () => {
    const steps: Step[] = [];
    const result = await client.callTool(
      { name: "ops__run_build", arguments: { project: "demo", steps: 3, step_ms: 20 } },
      { onprogress: ({ progress, total, message }) => steps.push({ progress, total, message }) },
    );
    expect(result.structuredContent).toMatchObject({ project: "demo", steps: 3 });
    expect(steps).toEqual([
      { progress: 1, total: 3, message: "fetch sources (1/3)" },
      { progress: 2, total: 3, message: "install dependencies (2/3)" },
      { progress: 3, total: 3, message: "test (3/3)" },
    ]);
  });

  it("relays the external server's progress, every step in order", async () => {
    const steps: Step[] = [];
    const result = await client.callTool(
      { name: "ext__slow", arguments: { steps: 3, delayMs: 20, label: uniqueLabel("hub") } },
      { onprogress: ({ progress, total }) => steps.push({ progress, total }) },
    );
    expect(textOf(result)).toBe("counted to 3");
    expect(steps).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });
});

describe("official v2 client pinned to 2026-07-28: cancelling through the hub", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectPinned();
  });
  afterAll(async () => {
    await client.close();
  });

  it("stops the in-process upstream's handler when the client aborts the hub call", async () => {
    const label = uniqueLabel("hub");
    const controller = new AbortController();
    const call = client.callTool(
      { name: "everything__test_slow_counter", arguments: { steps: 100, delayMs: 50, label } },
      { signal: controller.signal, onprogress: () => controller.abort() },
    );
    await expect(call).rejects.toThrow(/abort/i);

    const direct = await connectPinned(serverUrl("everything"));
    try {
      const status = await abortStatus(direct, "test_abort_status", label);
      expect(status).toMatch(new RegExp(`^aborted: ${label} at step (\\d+)`));
      expect(Number(/at step (\d+)/.exec(status)?.[1])).toBeLessThan(100);
    } finally {
      await direct.close();
    }
  });

  it("stops the external SDK server's handler when the client aborts the hub call", async () => {
    const label = uniqueLabel("hub");
    const controller = new AbortController();
    const call = client.callTool(
      { name: "ext__slow", arguments: { steps: 100, delayMs: 50, label } },
      { signal: controller.signal, onprogress: () => controller.abort() },
    );
    await expect(call).rejects.toThrow(/abort/i);

    const direct = await connectPinned(sdkServerUrl());
    try {
      const status = await abortStatus(direct, "abort_status", label);
      expect(status).toMatch(new RegExp(`^aborted: ${label} at step (\\d+)$`));
      expect(Number(/at step (\d+)/.exec(status)?.[1])).toBeLessThan(100);
    } finally {
      await direct.close();
    }
  });
});
