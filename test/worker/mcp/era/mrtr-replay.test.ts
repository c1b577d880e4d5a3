import { describe, expect, it } from "vitest";
import { call } from "../../call.ts";

// deploy_release on the ops server asks to confirm, then deploys: a round that must run once.
const ALICE = { Authorization: "Bearer token-alice" };
const options = { server: "ops", capabilities: { elicitation: {} }, headers: ALICE };
const args = { version: "9.9.9", environment: "production" };
const confirm = { confirmation: { action: "accept", content: { confirm: true } } };
const deploy = (extra: Record<string, unknown> = {}) =>
  call("tools/call", { name: "deploy_release", arguments: args, ...extra }, options);

describe("MRTR rounds cannot be skipped or replayed", () => {
  it("ignores answers sent without the requestState that asked: nothing is deployed", async () => {
    const { final } = await deploy({ inputResponses: confirm });
    expect(final?.result.resultType).toBe("input_required");
    expect(final?.result.inputRequests).toHaveProperty("confirmation");
  });

  it("runs a confirmed round once; replaying it is refused with -32602", async () => {
    const first = await deploy();
    const requestState = first.final?.result.requestState;
    const done = await deploy({ requestState, inputResponses: confirm });
    expect(done.final?.result.content[0].text).toMatch(/^Deployed 9.9.9 to production/);
    const replay = await deploy({ requestState, inputResponses: confirm });
    expect(replay.final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/already answered; a round runs once/),
    });
  });

  it("refuses a round replayed by another caller before anything else", async () => {
    const first = await deploy();
    const requestState = first.final?.result.requestState;
    const bob = await call(
      "tools/call",
      { name: "deploy_release", arguments: args, requestState, inputResponses: confirm },
      { ...options, headers: { Authorization: "Bearer token-bob" } },
    );
    expect(bob.final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/belongs to another caller/),
    });
    // Bob's attempt did not use up alice's round.
    const done = await deploy({ requestState, inputResponses: confirm });
    expect(done.final?.result.content[0].text).toMatch(/^Deployed/);
  });
});

describe("MRTR params nested deep", () => {
  it("are refused with -32602 naming the depth, before anything runs", async () => {
    const depth = 3_000;
    const deep: unknown = JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);
    const { final } = await deploy({ deep });
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/nested more than 512 levels deep/),
    });
  });
});
