import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startThirdParty, type ThirdPartyServer } from "../../support/third-party/servers.ts";
import { runCli } from "../cli.ts";

let simple: ThirdPartyServer;
beforeAll(async () => {
  simple = await startThirdParty("sdkSimple");
}, 60_000);
afterAll(async () => {
  await simple.stop();
});

describe("edgemcp call and the server's log messages", () => {
  it("writes the log messages a 2025 server sends on its session's stream to stderr, the result to stdout", async () => {
    // multi-greet logs through the SDK's sendLoggingMessage, outside the call's own stream.
    const { code, stdout, stderr } = await runCli([
      "call",
      simple.url,
      "multi-greet",
      "--args",
      '{"name":"Ada"}',
    ]);
    expect([code, stdout]).toEqual([0, "Good morning, Ada!\n"]);
    expect(stderr.split("\n")).toEqual(
      expect.arrayContaining([
        "log debug: Starting multi-greet for Ada",
        "log info: Sending first greeting to Ada",
      ]),
    );
  });
});
