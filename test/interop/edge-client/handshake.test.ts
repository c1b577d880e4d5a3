import { describe, expect, inject, it } from "vitest";
import { connect, type WireEvent } from "../../../shared/client/index.ts";

describe("choosing the handshake", () => {
  it("starts with initialize, never server/discover, when asked to", async () => {
    const methods: string[] = [];
    const onWire = (event: WireEvent) => {
      if (
        event.type === "request" &&
        typeof event.body === "object" &&
        event.body !== null &&
        "method" in event.body
      )
        methods.push(String(event.body.method));
    };
    const client = await connect(`${inject("workerUrl")}/mcp/everything`, {
      handshake: "initialize",
      onWire,
    });
    expect(client.era).toBe("legacy");
    expect(methods[0]).toBe("initialize");
    expect(methods).not.toContain("server/discover");
    await client.close();
  });

  it("probes with server/discover by default and speaks 2026 to a 2026 server", async () => {
    const client = await connect(`${inject("workerUrl")}/mcp/everything`);
    expect(client.era).toBe("modern");
    await client.close();
  });
});
