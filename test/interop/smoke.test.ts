import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, inject, it } from "vitest";

describe("official v2 client", () => {
  it("connects pinned to 2026-07-28 and lists tools", async () => {
    const client = new Client(
      { name: "interop", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${inject("workerUrl")}/mcp/everything`)),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("test_simple_text");
    await client.close();
  });
});
