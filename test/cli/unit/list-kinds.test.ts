import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startThirdParty, type ThirdPartyServer } from "../../support/third-party/servers.ts";
import { runCli } from "../cli.ts";

let polling: ThirdPartyServer;
beforeAll(async () => {
  // The SDK's polling example offers tools only: no prompts, no resources.
  polling = await startThirdParty("sdkPolling");
}, 60_000);
afterAll(async () => {
  await polling.stop();
});

describe("edgemcp list <kind> on a server that does not offer that kind", () => {
  it("says the server does not offer it, instead of the server's -32601", async () => {
    const ran = await Promise.all(
      ["prompts", "resources", "templates"].map((kind) => runCli(["list", polling.url, kind])),
    );
    expect(ran.map(({ code, stdout, stderr }) => [code, stdout, stderr])).toEqual([
      [1, "", 'The server does not offer prompts: its capabilities have no "prompts".\n'],
      [1, "", 'The server does not offer resources: its capabilities have no "resources".\n'],
      [1, "", 'The server does not offer templates: its capabilities have no "resources".\n'],
    ]);
  });

  it("still lists the kinds it offers", async () => {
    const { code, stdout } = await runCli(["list", polling.url, "tools"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Tools \(1\)$/m);
  });
});
