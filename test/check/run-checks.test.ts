import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChecks } from "../../shared/check/run-checks.ts";
import { CHECK_GROUPS } from "../../shared/check/report.ts";
import { serverUrl } from "../interop/support/clients.ts";
import { startSdkV1Server, startSdkV2Server } from "../interop/edge-client/sdk-servers.ts";
import { checkFake, notPassed, ORIGIN } from "./report.ts";

describe("runChecks on servers that follow the rules", () => {
  it("passes every check on a server that breaks none", async () => {
    const report = await checkFake();
    expect(notPassed(report)).toEqual({});
    expect(report.counts.skip).toBe(0);
    expect(report).toMatchObject({ era: "modern", ok: true, server: { name: "fake" } });
    expect(report.checks.map((c) => c.group)).toEqual(
      [...report.checks.map((c) => c.group)].sort(
        (a, b) => CHECK_GROUPS.indexOf(a) - CHECK_GROUPS.indexOf(b),
      ),
    );
  });

  it("passes every check that applies on the Worker's servers and its hub", async () => {
    const hub = new URL("/mcp", serverUrl("everything"));
    for (const url of [serverUrl("everything"), serverUrl("notes"), serverUrl("ops"), hub]) {
      const report = await runChecks(url.href, { origin: ORIGIN });
      const failed = notPassed(report, false);
      expect({ url: url.href, failed }).toEqual({ url: url.href, failed: {} });
    }
  });
});

describe("runChecks on servers built with the official SDK", () => {
  let v2: Awaited<ReturnType<typeof startSdkV2Server>>;
  let v1: Awaited<ReturnType<typeof startSdkV1Server>>;
  beforeAll(async () => {
    [v2, v1] = await Promise.all([startSdkV2Server(), startSdkV1Server()]);
  });
  afterAll(async () => {
    await Promise.all([v2.close(), v1.close()]);
  });

  it("finds a 2026 SDK server conformant, warning that it takes any cursor and has no CORS", async () => {
    const report = await runChecks(v2.url, { origin: ORIGIN });
    expect(report.ok).toBe(true);
    expect(notPassed(report)).toEqual({
      "lists.cursor-invalid": "warn",
      "cors.preflight": "warn",
      "cors.response": "warn",
    });
  });

  it("finds a 2025-only SDK server legacy, checks its handshake and skips the 2026 checks", async () => {
    const report = await runChecks(v1.url, { origin: ORIGIN });
    expect(report).toMatchObject({ era: "legacy", ok: true, server: { name: "sdk-v1-test" } });
    const legacy = report.checks.filter((c) => c.id.startsWith("legacy."));
    expect(legacy.map((c) => [c.id, c.status])).toEqual([
      ["legacy.initialize", "pass"],
      ["legacy.initialized", "pass"],
      ["legacy.ping", "pass"],
      ["legacy.tools-list", "pass"],
    ]);
    const modern = report.checks.filter((c) => ["headers", "lists", "errors"].includes(c.group));
    expect(new Set(modern.map((c) => c.status))).toEqual(new Set(["skip"]));
  });
});
