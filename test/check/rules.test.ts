import { describe, expect, it } from "vitest";
import { fixFor } from "../../shared/check/fixes.ts";
import type { Quirk } from "./fake-server.ts";
import { checkFake, outcome } from "./report.ts";

/** Each quirk, the check that must catch it, and how (fail for a MUST, warn for a SHOULD). */
const CAUGHT: Array<[Quirk, string, "fail" | "warn", RegExp]> = [
  ["ignoresHeaders", "headers.method-mismatch", "fail", /expected HTTP 400 with error -32020/],
  ["ignoresHeaders", "headers.name-mismatch", "fail", /got HTTP 200 with error -32602/],
  [
    "noVersionData",
    "headers.version-unsupported",
    "fail",
    /data\.supported should list 2026-07-28/,
  ],
  ["noResultType", "discover.result-type", "fail", /got undefined/],
  ["noResultType", "messages.result-type", "fail", /server\/discover/],
  ["noServerInfo", "discover.server-info", "warn", /serverInfo/],
  ["noServerInfo", "messages.server-info", "warn", /tools\/list/],
  ["noCacheHints", "lists.tools-cache-hints", "fail", /page 1: ttlMs must be a number/],
  ["noCacheHints", "discover.cache-hints", "fail", /ttlMs/],
  ["scopeChangesByPage", "lists.tools-cache-hints", "fail", /page 2 says cacheScope "private"/],
  ["duplicateTool", "lists.tools", "fail", /alpha is listed twice/],
  ["arrayInputSchema", "lists.tools", "fail", /tool "beta": inputSchema must have type "object"/],
  ["acceptsBadCursor", "lists.cursor-invalid", "warn", /got HTTP 200 with a result/],
  ["shuffles", "lists.deterministic", "warn", /another order/],
  ["notFoundLegacyCode", "resources.not-found", "warn", /-32002/],
  ["notFoundEmpty", "resources.not-found", "fail", /empty contents/],
  ["unknownMethodOk", "errors.unknown-method", "fail", /got HTTP 200 with a result/],
  ["reservedCode", "messages.error-codes", "fail", /-32050/],
  ["mintsSession", "discover.no-session", "fail", /Mcp-Session-Id: minted/],
  ["noCors", "cors.preflight", "warn", /HTTP 405/],
  ["noCors", "cors.response", "warn", /Access-Control-Allow-Origin is null/],
];

describe("runChecks catches each broken rule", () => {
  it.each(CAUGHT)("%s: %s is %s", async (quirk, id, status, detail) => {
    const report = await checkFake(quirk);
    expect(outcome(report, id)).toEqual({ status, detail: expect.stringMatching(detail) });
    expect(report.ok).toBe(!report.checks.some((check) => check.status === "fail"));
  });

  it.each(CAUGHT)("%s: %s says what to fix", async (quirk, id) => {
    const report = await checkFake(quirk);
    const check = report.checks.find((c) => c.id === id);
    expect(check?.fix).toMatch(/^[A-Z].{20,}\.$/);
    // Only failures and warnings carry advice.
    expect(
      report.checks.filter((c) => c.fix && (c.status === "pass" || c.status === "skip")),
    ).toEqual([]);
  });

  it("has advice for every check there is", async () => {
    const ids = new Set([
      ...(await checkFake()).checks.map((c) => c.id),
      ...(await checkFake("legacyOnly")).checks.map((c) => c.id),
    ]);
    expect(ids.size).toBeGreaterThan(30);
    expect([...ids].filter((id) => fixFor(id) === undefined)).toEqual([]);
  });

  it("fails the report (ok: false) when any check fails, and not for warnings", async () => {
    expect((await checkFake("duplicateTool")).ok).toBe(false);
    expect((await checkFake("acceptsBadCursor", "noCors")).ok).toBe(true);
  });
});

describe("runChecks settles the era first", () => {
  it("skips 2026 checks for a 2025-only server and checks its handshake", async () => {
    const report = await checkFake("legacyOnly");
    expect(report.era).toBe("legacy");
    expect(outcome(report, "discover.answers").status).toBe("warn");
    expect(outcome(report, "headers.method-missing")).toEqual({
      status: "skip",
      detail: "the server does not speak 2026-07-28",
    });
    expect(outcome(report, "legacy.initialize").status).toBe("pass");
  });

  it("skips the handshake of a 2026-only server that refuses initialize", async () => {
    const report = await checkFake("modernOnly");
    expect(outcome(report, "legacy.initialize")).toEqual({
      status: "skip",
      detail: expect.stringMatching(/^a 2026-only server/),
    });
    expect(report.ok).toBe(true);
  });

  it("fails a server that answers neither server/discover nor initialize", async () => {
    const report = await checkFake("legacyOnly", "modernOnly");
    expect(report.era).toBe("unknown");
    expect(outcome(report, "legacy.initialize").status).toBe("fail");
    expect(report.ok).toBe(false);
  });

  it("reports an unreachable server as failed, without throwing", async () => {
    const { runChecks } = await import("../../shared/check/run-checks.ts");
    const report = await runChecks("http://127.0.0.1:9/mcp", { timeoutMs: 2000 });
    expect(report.era).toBe("unknown");
    expect(outcome(report, "discover.answers").detail).toMatch(/unreachable/);
    expect(report.ok).toBe(false);
  });
});
