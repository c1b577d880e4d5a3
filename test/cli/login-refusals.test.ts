import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serveNode } from "../interop/support/http.ts";
import { startHostile, type Hostile } from "../shared/client/auth/hostile.ts";
import { runCli } from "./cli.ts";

let h: Hostile;
let config: string;
beforeEach(async () => {
  h = await startHostile();
  config = await mkdtemp(join(tmpdir(), "edgemcp-login-refused-"));
});
afterEach(async () => {
  await h.close();
  await rm(config, { recursive: true, force: true });
});

const login = () =>
  runCli(["login", h.mcp, "--no-browser", "-v"], {
    EDGEMCP_CONFIG_DIR: config,
    DISPLAY: "",
    WAYLAND_DISPLAY: "",
  });

describe("edgemcp login against a broken authorization server on loopback", () => {
  it("says what is wrong and what the server's owner must change, and keeps nothing", async () => {
    h.metadata.issuer = `${h.issuer}/`;
    const ran = await login();
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain(
      `edgemcp login: The metadata's issuer is \`${h.issuer}/\` but it was fetched for \`${h.issuer}\`: RFC 8414 §3.3 requires them to be identical`,
    );
    expect(ran.stderr).toContain(
      "    fix: The server's owner must make the metadata's issuer and the protected resource metadata's authorization_servers entry the same string",
    );
    expect(ran.stderr).toContain("    rule: RFC 8414 §3.3");
    expect(ran.stderr).not.toContain("Sign in at this URL");
    const kept = (await readdir(config)).includes("auth.json")
      ? await readFile(join(config, "auth.json"), "utf8")
      : "";
    expect(kept).not.toContain("client_id");
    expect(kept).not.toContain("access_token");
  });

  it("says which step could not reach which address, and why, when the authorization server is down", async () => {
    const gone = await serveNode((_req, res) => res.end());
    await gone.close();
    h.prm.authorization_servers = [gone.origin];
    const ran = await login();
    expect(ran.code).toBe(1);
    expect(ran.stderr.trim().split("\n").at(-1)).toMatch(
      new RegExp(
        `^edgemcp login: Could not fetch the authorization server's metadata \\(${gone.origin}/\\.well-known/[a-z-]+\\): fetch failed \\(connect ECONNREFUSED [^)]+\\)\\.$`,
      ),
    );
    expect(ran.stderr).not.toContain("(network)");
  });

  it("refuses a server without PKCE S256 before printing any sign-in URL", async () => {
    h.metadata.code_challenge_methods_supported = ["plain"];
    const ran = await login();
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain("does not list S256 in code_challenge_methods_supported");
    expect(ran.stderr).not.toContain("Sign in at this URL");
    expect(h.requests).not.toContain("GET /authorize");
  });
});
