import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import * as z from "zod";
import { sh } from "../../support/sh.ts";
import { PYTHON_MCP_VERSION, pythonWithSdk } from "../support/python-sdk.ts";

// The official MCP Python SDK's client (from PyPI, in a virtual environment the suite makes
// and caches) against the running Worker: every endpoint, in 2026-07-28 and each 2025 revision.
// test/interop/python/drive.py runs one endpoint in one version and prints a line per check.
const ENDPOINTS = ["/mcp", "/mcp/everything", "/mcp/notes", "/mcp/ops", "/mcp/analytics"];
const VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"];

const Line = z.object({
  check: z.string(),
  status: z.enum(["pass", "fail", "skip"]),
  detail: z.unknown(),
});
type Line = z.infer<typeof Line>;

let python: string;
const tally = { pass: 0, fail: 0, skip: new Map<string, number>() };

beforeAll(async () => {
  python = await pythonWithSdk();
}, 300_000);

afterAll(() => {
  const skipped = [...tally.skip].map(([reason, n]) => `  ${n} × ${reason}`).join("\n");
  const skips = [...tally.skip.values()].reduce((a, b) => a + b, 0);
  console.log(
    `Python SDK mcp ${PYTHON_MCP_VERSION}: ${tally.pass} passed, ${tally.fail} failed, ${skips} skipped by design\n${skipped}`,
  );
});

/** Runs the driver for one endpoint and version; every line it printed, parsed. */
async function drive(endpoint: string, version: string): Promise<Line[]> {
  const script = resolve("test/interop/python/drive.py");
  const ran = await sh(
    python,
    ["-W", "ignore", script, inject("workerUrl"), endpoint, version],
    process.cwd(),
  );
  const lines = ran.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => Line.parse(JSON.parse(line)));
  expect(lines.length, `the driver stopped early:\n${ran.stderr.slice(-3000)}`).toBeGreaterThan(0);
  expect(ran.code, ran.stderr.slice(-3000)).toBe(0);
  return lines;
}

describe.each(ENDPOINTS)("the official Python SDK's client on %s", (endpoint) => {
  it.each(VERSIONS)("passes every check in %s", { timeout: 240_000 }, async (version) => {
    const lines = await drive(endpoint, version);
    for (const line of lines) {
      if (line.status === "skip") {
        const reason = `${line.check}: ${String(line.detail)}`;
        tally.skip.set(reason, (tally.skip.get(reason) ?? 0) + 1);
      } else tally[line.status]++;
    }
    const failed = lines.filter((line) => line.status === "fail");
    expect(failed.map((line) => `${line.check}: ${String(line.detail)}`)).toEqual([]);
    // Each of these runs wherever it applies; none may quietly stop being run.
    const ran = new Set(lines.filter((line) => line.status === "pass").map((line) => line.check));
    expect(ran).toContain("connects and agrees on the version");
    expect(ran).toContain(
      "reports a bad bearer token's reason, not a generic error (401, id null)",
    );
    expect(ran).toContain("gets a readable 413 for a 5 MiB argument (the endpoint takes 1 MiB)");
  });
});
