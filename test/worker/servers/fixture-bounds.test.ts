import { describe, expect, it } from "vitest";
import { call } from "../call.ts";

const BOB = { Authorization: "Bearer token-bob" };

describe("fixtures anyone may call are bounded", () => {
  it("refuses a slow count that would hold the call past a minute", async () => {
    const { final } = await call("tools/call", {
      name: "test_slow_counter",
      arguments: { steps: 1000, delayMs: 10_000 },
    });
    expect(final?.result).toMatchObject({ isError: true });
    expect(final?.result.content[0].text).toMatch(/at most 60 s/);
  });

  it("gives an anonymous caller at most 1 MiB of large text, a caller with a token more", async () => {
    const args = { name: "test_large_text", arguments: { bytes: 1024 * 1024 + 1 } };
    const anonymous = await call("tools/call", args);
    expect(anonymous.final?.result).toMatchObject({ isError: true });
    expect(anonymous.final?.result.content[0].text).toMatch(/at most 1 MiB/);
    const bob = await call("tools/call", args, { headers: BOB });
    expect(bob.final?.result.content[0].text).toHaveLength(1024 * 1024 + 1);
  });

  it("lets an anonymous scan run a minute at most", async () => {
    const args = { name: "scan_repo", arguments: { repo: "r", files: 500, file_ms: 2_000 } };
    const anonymous = await call("tools/call", args, { server: "ops" });
    expect(anonymous.final?.result).toMatchObject({ isError: true });
    expect(anonymous.final?.result.content[0].text).toMatch(/at most 60 s/);
  });
});
