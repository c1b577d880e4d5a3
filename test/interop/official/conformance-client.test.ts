import { describe, expect, it } from "vitest";
import {
  requiredClientScenarios,
  runClientSuite,
  type ClientRun,
} from "./conformance-client-run.ts";

/**
 * Client scenarios that fail today because a feature is missing, with the reason. Each must keep
 * failing: when one starts passing its test fails, so the entry has to be removed here.
 */
const EXTENSIONS: Record<string, string> = {
  "auth/client-credentials-jwt":
    "extension: the client_credentials grant (machine-to-machine) is not implemented",
  "auth/client-credentials-basic":
    "extension: the client_credentials grant (machine-to-machine) is not implemented",
  "auth/enterprise-managed-authorization":
    "extension: enterprise-managed authorization (ID-JAG token exchange) is not implemented",
  "auth/dpop": "extension: DPoP-bound tokens (RFC 9449) are not implemented",
  "auth/dpop-nonce": "extension: DPoP-bound tokens (RFC 9449) are not implemented",
  "auth/wif-jwt-bearer": "extension: workload identity (JWT bearer grant) is not implemented",
};

const PENDING: Record<string, Record<string, string>> = {
  "2026-07-28": EXTENSIONS,
  "2025-11-25": EXTENSIONS,
  "2025-03-26": {},
};

/** A scenario's FAILURE checks as readable lines, then what the client printed. */
function failuresOf(run: ClientRun, scenario: string): string[] {
  return (run.scenarios.get(scenario) ?? [])
    .filter((check) => check.status === "FAILURE")
    .map((check) => `${check.id}: ${check.errorMessage ?? check.description}`);
}

// Each requirement set's client scenarios at its own wire version (--force: as --requirements
// does, even the extensions whose own tags name no version), then the 2025-03-26 pair.
const TIMEOUT = ["--timeout", "120000"];
const runs: Record<string, ClientRun> = {};
const listed: Record<string, string[]> = {
  "2025-03-26": [
    "auth/2025-03-26-oauth-metadata-backcompat",
    "auth/2025-03-26-oauth-endpoint-fallback",
  ],
};
for (const revision of ["2026-07-28", "2025-11-25"]) {
  const scenarios = await requiredClientScenarios("conformance-next", revision);
  listed[revision] = scenarios;
  runs[revision] = await runClientSuite("conformance-next", scenarios, [
    "--spec-version",
    revision,
    "--force",
    ...TIMEOUT,
  ]);
}
runs["2025-03-26"] = await runClientSuite("conformance-legacy", listed["2025-03-26"] ?? [], [
  "--spec-version",
  "2025-03-26",
  ...TIMEOUT,
]);

describe.each([
  [
    "@modelcontextprotocol/conformance 0.2.0-alpha.12 client, requirements 2026-07-28",
    "2026-07-28",
  ],
  [
    "@modelcontextprotocol/conformance 0.2.0-alpha.12 client, requirements 2025-11-25",
    "2025-11-25",
  ],
  ["@modelcontextprotocol/conformance 0.1.16 client, 2025-03-26 back-compatibility", "2025-03-26"],
] as const)("%s", (_title, set) => {
  const run = runs[set];
  if (!run) throw new Error(`no run for ${set}`);
  const pending = PENDING[set] ?? {};
  const scenarios = [...run.scenarios.keys()];

  it("writes checks for every client scenario the set lists", () => {
    const names = listed[set] ?? [];
    expect(names.length).toBeGreaterThan(1);
    expect([...scenarios].sort(), run.output.slice(-4000)).toEqual([...names].sort());
  });

  it("runs every scenario listed as pending", () => {
    expect(Object.keys(pending).filter((name) => !run.scenarios.has(name))).toEqual([]);
  });

  it.each(scenarios.filter((name) => !(name in pending)))("passes %s", (name) => {
    const failures = failuresOf(run, name);
    expect(
      failures,
      `${name}: failed checks; the client said:\n${run.clientOutput.get(name) ?? ""}`,
    ).toEqual([]);
  });

  it.each(scenarios.filter((name) => name in pending))(
    "still fails %s (pending; remove it from PENDING once it passes)",
    (name) => {
      expect(failuresOf(run, name), `${name} passes now (pending: ${pending[name]})`).not.toEqual(
        [],
      );
    },
  );
});
