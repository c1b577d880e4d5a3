import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../cli.ts";

const SERVER = "http://127.0.0.1:9/mcp";
const ISSUER = "http://127.0.0.1:9";

let config: string;
let env: Record<string, string>;
beforeEach(async () => {
  config = await mkdtemp(join(tmpdir(), "edgemcp-logout-"));
  env = { EDGEMCP_CONFIG_DIR: config };
});
afterEach(async () => {
  await rm(config, { recursive: true, force: true });
});

describe("edgemcp logout", () => {
  it("says when nothing was kept for the server instead of claiming to sign out", async () => {
    const { code, stdout } = await runCli(["logout", SERVER], env);
    expect([code, stdout]).toEqual([
      0,
      `No sign-in to ${SERVER} is kept in ${join(config, "auth.json")}; nothing to forget.\n`,
    ]);
  });

  it("forgets a kept sign-in and says so", async () => {
    const kept = {
      [`server:${SERVER}`]: { issuer: ISSUER, resource: SERVER },
      [`issuer:${ISSUER}`]: { tokens: { [SERVER]: { access_token: "t0k" } } },
    };
    await writeFile(join(config, "auth.json"), JSON.stringify(kept));
    const { code, stdout } = await runCli(["logout", SERVER], env);
    expect([code, stdout]).toEqual([0, `Signed out of ${SERVER}.\n`]);
    const left: Record<string, unknown> = JSON.parse(
      await readFile(join(config, "auth.json"), "utf8"),
    );
    expect(left[`server:${SERVER}`]).toBeUndefined();
    expect(JSON.stringify(left)).not.toContain("t0k");
  });

  it("refuses login's options and a second argument with exit code 2", async () => {
    const ran = await Promise.all([
      runCli(["logout", SERVER, "--scope", "mcp"], env),
      runCli(["logout", SERVER, "--no-browser"], env),
      runCli(["logout", SERVER, "extra"], env),
    ]);
    expect(ran.map(({ code, stderr }) => [code, stderr.split("\n")[0]])).toEqual([
      [2, "edgemcp logout: Unknown option '--scope'."],
      [2, "edgemcp logout: Unknown option '--no-browser'."],
      [2, 'edgemcp logout: Unexpected argument "extra".'],
    ]);
  });
});
