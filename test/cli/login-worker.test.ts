import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { serverUrl } from "../interop/support/clients.ts";
import { browser, consentForm } from "../interop/oauth/sign-in.ts";
import { bridgeTransport, runCli } from "./cli.ts";
import { changeKept, keptTokens, loginWithBrowser, readKept } from "./login-browser.ts";

// The Worker's notes server under wrangler dev, protected by the Worker's own authorization
// server (edgemcp/oauth) with its development login: reading is open, writing needs a token.
let url: string;
let config: string;
let env: Record<string, string>;

beforeAll(async () => {
  url = serverUrl("notes").href;
  config = await mkdtemp(join(tmpdir(), "edgemcp-login-worker-"));
  env = { EDGEMCP_CONFIG_DIR: config, DISPLAY: "", WAYLAND_DISPLAY: "" };
});

afterAll(() => rm(config, { recursive: true, force: true }));

/** The person at the browser: the Worker's sign-in page, Alice picked, Allow. */
async function consent(authorizationUrl: string): Promise<string> {
  const send = browser();
  const page = await send(authorizationUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`The sign-in page answered ${page.status}: ${html}`);
  const answer = await send(
    new URL("/authorize", authorizationUrl).href,
    consentForm(html, "alice"),
  );
  const location = answer.headers.get("location");
  if (answer.status !== 302 || !location) throw new Error(`Consent answered ${answer.status}.`);
  return location;
}

const create = (title: string) =>
  runCli(
    ["call", url, "create_note", "--args", JSON.stringify({ title, body: "from the CLI" })],
    env,
  );

describe("edgemcp login against the Worker's notes server behind its own authorization server", () => {
  it("tells to run edgemcp login when a write needs sign-in and nothing is kept", async () => {
    const ran = await create("refused");
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain(`asks for sign-in: run "edgemcp login ${url}" first`);
  });

  it("signs in ahead of any write, through the development login, and keeps the tokens for its owner only", async () => {
    const ran = await loginWithBrowser(url, env, consent, ["-v"]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.page).toContain("Back to the terminal");
    const origin = new URL(url).origin;
    expect(ran.stdout).toMatch(
      new RegExp(
        `^Signed in to ${url} through ${origin} with scope "mcp offline_access", the token lasts until `,
      ),
    );
    // -v prints each step, in order, with no token in any.
    const steps = [...ran.stderr.matchAll(/^ {2}([a-z-]+): /gm)].map((m) => m[1]);
    expect(steps).toEqual([
      "challenge",
      "resource-metadata",
      "server-metadata",
      "client",
      "authorization",
      "callback",
      "token",
    ]);
    expect((await stat(join(config, "auth.json"))).mode & 0o777).toBe(0o600);
    expect((await stat(config)).mode & 0o777).toBe(0o700);
    const tokens = await keptTokens(config, url);
    expect(tokens.refresh_token).toBeTruthy();
    for (const secret of [tokens.access_token, tokens.refresh_token ?? "missing"])
      expect(`${ran.stdout}${ran.stderr}`).not.toContain(secret);
  });

  it("then writes with call and lists with list, the token kept out of their output", async () => {
    const { access_token: token } = await keptTokens(config, url);
    const created = await create("signed in");
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/note-\d+/);
    const listed = await runCli(["list", url, "tools"], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("create_note");
    const curl = await runCli(
      ["call", url, "create_note", "--args", '{"title":"t","body":"b"}', "--curl"],
      env,
    );
    for (const out of [created, listed, curl])
      expect(`${out.stdout}${out.stderr}`).not.toContain(token);
  });

  it("serves the write to a stdio host through the bridge with the kept token", async () => {
    const client = new Client({ name: "stdio-host", version: "1.0.0" });
    await client.connect(bridgeTransport(url, env));
    try {
      const result = await client.callTool({
        name: "create_note",
        arguments: { title: "through stdio", body: "bridged" },
      });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expect(JSON.stringify(result.content)).toMatch(/note-\d+/);
    } finally {
      await client.close();
    }
  });

  it("refreshes a lapsed token before sending it, keeping the rotated refresh token", async () => {
    const before = await keptTokens(config, url);
    await changeKept(config, url, (tokens) => {
      tokens.access_token = "lapsed-and-unknown-to-the-server";
      tokens.expires_at = Date.now() - 60_000;
    });
    const created = await create("after expiry");
    expect(created.code, created.stderr).toBe(0);
    const after = await keptTokens(config, url);
    expect(after.access_token).not.toBe("lapsed-and-unknown-to-the-server");
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toBeTruthy();
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.expires_at).toBeGreaterThan(Date.now());
  });

  it("refreshes when the server refuses a token that has not lapsed here (401)", async () => {
    const before = await keptTokens(config, url);
    await changeKept(config, url, (tokens) => {
      tokens.access_token = "revoked-by-the-server";
    });
    const created = await create("after a 401");
    expect(created.code, created.stderr).toBe(0);
    const after = await keptTokens(config, url);
    expect(after.access_token).not.toBe("revoked-by-the-server");
    expect(after.refresh_token).not.toBe(before.refresh_token);
  });

  it("forgets the tokens on logout, and a write asks for sign-in again", async () => {
    const out = await runCli(["logout", url], env);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Signed out of ${url}`);
    const kept = await readKept(config);
    expect(kept[`server:${url}`]).toBeUndefined();
    expect(JSON.stringify(kept)).not.toContain("access_token");
    const refused = await create("after logout");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("edgemcp login");
  });
});

describe("edgemcp login --scope", () => {
  let scoped: Record<string, string>;
  beforeAll(async () => {
    scoped = { ...env, EDGEMCP_CONFIG_DIR: await mkdtemp(join(tmpdir(), "edgemcp-login-scope-")) };
  });
  afterAll(() => rm(scoped.EDGEMCP_CONFIG_DIR ?? "", { recursive: true, force: true }));

  it("asks for the scopes given instead of the server's, and a tool that needs one of them works", async () => {
    let asked: string | null = null;
    const ran = await loginWithBrowser(
      url,
      scoped,
      (authorizationUrl) => {
        asked = new URL(authorizationUrl).searchParams.get("scope");
        return consent(authorizationUrl);
      },
      ["--scope", "mcp", "--scope", "notes:delete mcp"],
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(asked).toBe("mcp notes:delete offline_access");
    const granted = /with scope "([^"]+)"/.exec(ran.stdout)?.[1]?.split(" ").sort();
    expect(granted).toEqual(["mcp", "notes:delete", "offline_access"]);
    expect(ran.stderr).not.toContain("did not grant");
    const created = await runCli(
      ["call", url, "create_note", "--args", JSON.stringify({ title: "to delete", body: "b" })],
      scoped,
    );
    expect(created.code, created.stderr).toBe(0);
    const id = /note-(\d+)/.exec(created.stdout)?.[1];
    const deleted = await runCli(
      ["call", url, "delete_note", "--args", JSON.stringify({ id: Number(id) })],
      scoped,
    );
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`Deleted note ${id}.`);
  });

  it("says which of the scopes asked for the server did not grant", async () => {
    const ran = await loginWithBrowser(url, scoped, consent, ["--scope", "mcp nonsense:scope"]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('with scope "mcp offline_access"');
    expect(ran.stderr).toContain(
      'The authorization server did not grant "nonsense:scope" of the scopes asked for.',
    );
  });

  it("refuses a scope that is not one, or none, before anything is sent", async () => {
    const quoted = await runCli(["login", url, "--no-browser", "--scope", 'mcp "notes"'], scoped);
    expect(quoted.code).toBe(2);
    expect(quoted.stderr).toContain(
      '"\\"notes\\"" is not a scope: scopes are printable ASCII without spaces, quotes or backslashes (RFC 6749 §3.3).',
    );
    const empty = await runCli(["login", url, "--no-browser", "--scope", "  "], scoped);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("--scope needs at least one scope.");
  });
});
