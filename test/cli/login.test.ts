import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { bridgeTransport, runCli } from "./cli.ts";
import { changeKept, loginWithBrowser } from "./login-browser.ts";
import { startOAuthExample, type OAuthExample } from "./oauth-example.ts";

let example: OAuthExample;
let config: string;
let env: Record<string, string>;

beforeAll(async () => {
  example = await startOAuthExample();
  config = await mkdtemp(join(tmpdir(), "edgemcp-login-"));
  // No DISPLAY: the command prints the URL and opens nothing; the test plays the browser.
  env = { EDGEMCP_CONFIG_DIR: config, DISPLAY: "", WAYLAND_DISPLAY: "" };
});

afterAll(async () => {
  example.close();
  await rm(config, { recursive: true, force: true });
});

/** The demo authorization server grants at once: its page redirects straight back. */
async function grantAtOnce(authorizationUrl: string): Promise<string> {
  const authorize = await fetch(authorizationUrl, { redirect: "manual" });
  await authorize.body?.cancel();
  return authorize.headers.get("location") ?? "";
}

describe("edgemcp login against the SDK example server with its demo authorization server", () => {
  it("tells to run edgemcp login when a server asks for sign-in and nothing is kept", async () => {
    const ran = await runCli(["call", example.url, "greet", "--args", '{"name":"Ada"}'], env);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain(`asks for sign-in: run "edgemcp login ${example.url}" first`);
  });

  it("signs in through the browser step and keeps the tokens in a file only its owner reads", async () => {
    const ran = await loginWithBrowser(example.url, env, grantAtOnce);
    expect(ran.stderr).toContain("Sign in at this URL");
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.page).toContain("Back to the terminal");
    expect(ran.stdout).toContain(
      `Signed in to ${example.url} through ${example.issuer}/ with scope "mcp:tools"`,
    );
    const file = join(config, "auth.json");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(config)).mode & 0o777).toBe(0o700);
    const kept = JSON.parse(await readFile(file, "utf8")) as Record<
      string,
      { tokens?: Record<string, { access_token: string }> }
    >;
    const token = kept[`issuer:${example.issuer}/`]?.tokens?.[example.url]?.access_token;
    expect(token).toMatch(/.{16,}/);
    expect(`${ran.stdout}${ran.stderr}`).not.toContain(token);
  });

  it("then calls and lists with the kept token", async () => {
    const called = await runCli(["call", example.url, "greet", "--args", '{"name":"Ada"}'], env);
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toContain("Hello, Ada!");
    const listed = await runCli(["list", example.url, "tools"], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("greet");
  });

  it("leaves the kept token out of the curl it prints", async () => {
    const kept = JSON.parse(await readFile(join(config, "auth.json"), "utf8")) as Record<
      string,
      { tokens?: Record<string, { access_token: string }> }
    >;
    const token =
      kept[`issuer:${example.issuer}/`]?.tokens?.[example.url]?.access_token ?? "missing";
    const curl = await runCli(
      ["call", example.url, "greet", "--args", '{"name":"Ada"}', "--curl"],
      env,
    );
    expect(curl.code, curl.stderr).toBe(0);
    expect(curl.stdout).toContain("curl");
    expect(curl.stdout).not.toContain(token);
  });

  it("serves the server to a stdio host through the bridge with the kept token", async () => {
    const client = new Client({ name: "stdio-host", version: "1.0.0" });
    await client.connect(bridgeTransport(example.url, env));
    try {
      const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
      expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    } finally {
      await client.close();
    }
  });

  it("checks the server with the kept token, which its handshake needs", async () => {
    type Report = { era: string; server?: { name: string } };
    const checked = await runCli(["check", example.url, "--json"], env);
    const report = JSON.parse(checked.stdout) as Report;
    expect(report.era, checked.stdout).toBe("legacy");
    expect(report.server?.name).toBeTruthy();
    const nobody = { ...env, EDGEMCP_CONFIG_DIR: join(config, "nobody") };
    const anonymous = JSON.parse((await runCli(["check", example.url, "--json"], nobody)).stdout);
    expect((anonymous as Report).server).toBeUndefined();
  });

  it("asks to sign in again when the kept token lapsed and the server gave no refresh token", async () => {
    await changeKept(config, example.url, (tokens) => {
      tokens.expires_at = Date.now() - 60_000;
    });
    const called = await runCli(["call", example.url, "greet", "--args", '{"name":"Ada"}'], env);
    expect(called.code).toBe(1);
    expect(called.stderr).toContain(`asks for sign-in: run "edgemcp login ${example.url}" first`);
  });

  it("forgets the tokens on logout", async () => {
    const out = await runCli(["logout", example.url], env);
    expect(out.code).toBe(0);
    const called = await runCli(["call", example.url, "greet", "--args", '{"name":"Ada"}'], env);
    expect(called.code).toBe(1);
    expect(called.stderr).toContain("edgemcp login");
  });
});
