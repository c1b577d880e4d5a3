import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../shared/check/report.ts";
import { serverUrl } from "../interop/support/clients.ts";
import { serveFetch, type LoopbackServer } from "../interop/support/http.ts";
import { fakeServer } from "../check/fake-server.ts";
import { runCli } from "./cli.ts";

describe("edgemcp check", () => {
  let broken: LoopbackServer;
  beforeAll(async () => {
    const handle = fakeServer("ignoresHeaders", "acceptsBadCursor");
    broken = await serveFetch((request) => handle(request.url, request));
  });
  afterAll(async () => {
    await broken.close();
  });

  it("exits 0 on the Worker and prints one line per check under its group", async () => {
    const { code, stdout } = await runCli(["check", serverUrl("everything").href]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^server: edgemcp-everything \S+ · speaks 2026-07-28$/m);
    for (const group of CHECK_GROUPS) expect(stdout).toMatch(new RegExp(`^${group}$`, "m"));
    expect(stdout).toMatch(/^\d+ passed · 0 failed · 0 warnings · 0 skipped$/m);
  });

  it("exits 1 on a server that breaks a rule, naming what it saw", async () => {
    const { code, stdout } = await runCli(["check", broken.origin]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      "  FAIL  An Mcp-Method that differs from the body is refused (HTTP 400, -32020)",
    );
    expect(stdout).toContain(
      "        expected HTTP 400 with error -32020, got HTTP 200 with a result",
    );
    expect(stdout).toContain("  warn  An invalid cursor is refused with -32602");
    expect(stdout).toContain(
      "        fix: Refuse a cursor your server did not issue with -32602 instead of ignoring it.",
    );
  });

  it("prints the report as JSON with --json", async () => {
    const { code, stdout } = await runCli(["check", broken.origin, "--json"]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ url: `${broken.origin}/`, era: "modern", ok: false });
    expect(report.counts.fail).toBeGreaterThan(0);
  });

  it("says once that a server cannot be reached, with the reason list gives, and exits 1", async () => {
    const gone = await serveFetch(async () => new Response(null, { status: 404 }));
    await gone.close();
    const url = `${gone.origin}/mcp`;
    const [checked, listed] = await Promise.all([runCli(["check", url]), runCli(["list", url])]);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toBe("");
    expect(checked.stderr).toMatch(
      /^Could not reach http:\/\/127\.0\.0\.1:\d+\/mcp: fetch failed \(connect ECONNREFUSED [^)]+\)\n$/,
    );
    expect(checked.stderr).toBe(listed.stderr);
  });

  it("gives scripts the reason in the JSON report of an unreachable server", async () => {
    const gone = await serveFetch(async () => new Response(null, { status: 404 }));
    await gone.close();
    const { code, stdout } = await runCli(["check", `${gone.origin}/mcp`, "--json"]);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({
      ok: false,
      unreachable: expect.stringContaining("ECONNREFUSED"),
    });
  });

  it("refuses a timeout that is not a number of milliseconds", async () => {
    const { code, stderr } = await runCli(["check", broken.origin, "--timeout", "soon"]);
    expect(code).toBe(2);
    expect(stderr).toContain("--timeout takes milliseconds");
  });
});
