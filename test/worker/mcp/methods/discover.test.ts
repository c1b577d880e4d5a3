import { describe, expect, it } from "vitest";
import { MetaKey } from "../../../../shared/protocol/meta.ts";
import { call } from "../../call.ts";

describe("server/discover", () => {
  it("answers with the supported versions, capabilities and cache hints", async () => {
    const reply = await call("server/discover", {}, { id: "probe-1" });
    expect(reply.status).toBe(200);
    expect(reply.contentType).toBe("application/json");
    expect(reply.final?.id).toBe("probe-1");
    expect(reply.final?.result).toMatchObject({
      resultType: "complete",
      supportedVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {}, logging: {} },
      ttlMs: 60000,
      cacheScope: "public",
    });
  });

  it("names the server in result _meta, not at the top level", async () => {
    const { final } = await call("server/discover");
    expect(final?.result._meta[MetaKey.serverInfo]).toMatchObject({
      name: "edgemcp-everything",
      version: "0.1.0",
    });
    expect(final?.result.serverInfo).toBeUndefined();
  });

  it("accepts a request without clientInfo (it is optional)", async () => {
    const reply = await call("server/discover", {}, { meta: { [MetaKey.clientInfo]: null } });
    expect(reply.status).toBe(200);
    expect(reply.final?.result.resultType).toBe("complete");
  });

  it("never mints a session id", async () => {
    const reply = await call("server/discover");
    expect(reply.headers.get("Mcp-Session-Id")).toBeNull();
  });
});
