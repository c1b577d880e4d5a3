import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { SIGN_IN_FIX } from "../../../shared/check/fixes.ts";
import { runCli } from "../cli.ts";
import { startOAuthExample, type OAuthExample } from "../oauth-example.ts";

const Report = z.object({
  unauthorized: z.literal(true).optional(),
  checks: z.array(z.object({ id: z.string(), status: z.string() })),
});

let example: OAuthExample;
let env: Record<string, string>;
beforeAll(async () => {
  example = await startOAuthExample();
  // A config folder of its own: no token kept by an earlier sign-in.
  env = { EDGEMCP_CONFIG_DIR: await mkdtemp(join(tmpdir(), "edgemcp-check-401-")) };
}, 60_000);
afterAll(async () => {
  example.close();
  await rm(env.EDGEMCP_CONFIG_DIR ?? "", { recursive: true, force: true });
});

describe("edgemcp against a server that asks for credentials (the SDK's OAuth example)", () => {
  it("check says to sign in, and does not read the 401's OAuth body as a broken JSON-RPC message", async () => {
    const { code, stdout, stderr } = await runCli(["check", example.url], env);
    expect(code).toBe(1);
    expect(stdout).toContain("  pass  Every message is JSON-RPC 2.0 (0 seen)");
    expect(stdout).toContain("HTTP 401 (it asks for credentials)");
    expect(stdout).toMatch(
      /^server: \(unnamed\) · asks for credentials before it answers \(HTTP 401\)$/m,
    );
    expect(stderr).toBe(
      `The server asks for credentials (HTTP 401): the report shows what it shows a stranger. Run "edgemcp login ${example.url}", or pass --bearer <token> or set EDGEMCP_TOKEN, and check again.\n`,
    );
  });

  it("check's fixes for the checks the 401 stopped say to sign in, not to change the protocol", async () => {
    const { stdout } = await runCli(["check", example.url], env);
    const fixes = stdout.split("\n").filter((line) => line.startsWith("        fix: "));
    const signIn = `        fix: ${SIGN_IN_FIX}`;
    expect(fixes.filter((line) => line === signIn)).toHaveLength(2);
    expect(stdout).not.toContain("Answer initialize with a 2025 protocolVersion");
    expect(stdout).not.toContain("Answer POST server/discover");
  });

  it("check marks the JSON report unauthorized", async () => {
    const { stdout } = await runCli(["check", example.url, "--json"], env);
    const report = Report.parse(JSON.parse(stdout));
    expect(report.unauthorized).toBe(true);
    expect(report.checks.find((check) => check.id === "messages.envelope")?.status).toBe("pass");
  });
  it("the stdio bridge answers the host with the sign-in the server asks for, not that it could not be reached", async () => {
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "host", version: "1.0.0" },
      },
    });
    const { stdout } = await runCli(["stdio", example.url], env, `${initialize}\n`);
    expect(JSON.parse(stdout)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32603,
        message: `${example.url} asks for sign-in: run "edgemcp login ${example.url}" first (MCP authorization)`,
      },
    });
  });
});
