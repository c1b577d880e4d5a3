import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectV2, textOf } from "../support/clients.ts";
import { methodOf, wireLog } from "../support/wire-log.ts";

describe("official v2 client in its default (legacy) mode", () => {
  let client: Client;
  const wire = wireLog();
  beforeAll(async () => {
    client = await connectV2(undefined, { fetch: wire.fetch });
  });
  afterAll(async () => {
    await client.close();
  });

  it("connects with initialize at 2025-11-25 and sends the session id it was given", () => {
    expect(client.getProtocolEra()).toBe("legacy");
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect(wire.exchanges.map(methodOf).slice(0, 2)).toEqual([
      "initialize",
      "notifications/initialized",
    ]);
    expect(wire.exchanges[1]?.status).toBe(202);
    // The id holds no state on the server: it scopes the client's cancellations.
    const sessionId = wire.exchanges[0]?.sessionId;
    expect(sessionId).toMatch(/^[A-Za-z0-9_-]{22}\.[eustr]*$/);
    expect(wire.exchanges[0]?.headers.has("Mcp-Session-Id")).toBe(false);
    expect(wire.exchanges[1]?.headers.get("Mcp-Session-Id")).toBe(sessionId);
  });

  it("sends the session id on every later request", async () => {
    await client.ping();
    const sessionId = wire.exchanges[0]?.sessionId;
    const later = wire.exchanges.slice(1);
    expect(later.map((e) => e.headers.get("Mcp-Session-Id"))).toEqual(later.map(() => sessionId));
  });

  it("lists tools and calls one with structured output", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("add_numbers");
    const result = await client.callTool({ name: "add_numbers", arguments: { a: 20, b: 22 } });
    expect(result.structuredContent).toEqual({ sum: 42 });
  });

  it("receives the text of an array result, without structured content", async () => {
    const result = await client.callTool({ name: "list_primes", arguments: { below: 10 } });
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.parse(textOf(result))).toEqual([2, 3, 5, 7]);
  });

  it("walks all 28 resources and reads one", async () => {
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(28);
    const read = await client.readResource({ uri: "test://static-text" });
    expect(read.contents).toEqual([expect.objectContaining({ mimeType: "text/plain" })]);
  });

  it("answers ping with an empty result", async () => {
    expect(await client.ping()).toEqual({});
  });
});
