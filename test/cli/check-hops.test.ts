import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckReport } from "../../shared/check/report.ts";
import { startThirdParty, type ThirdPartyServer } from "../support/third-party/servers.ts";
import { runCli } from "./cli.ts";

const ORIGIN = "http://localhost:8787";

describe("edgemcp check --origin checks every hop a browser client needs", () => {
  // The SDK's example server sends no CORS headers at all.
  let server: ThirdPartyServer;
  beforeAll(async () => {
    server = await startThirdParty("sdkSimple");
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("names the missing CORS headers on the endpoint's hops, and says the relay gets around them", async () => {
    const { stdout } = await runCli(["check", server.url, "--origin", ORIGIN, "--json"]);
    const report = JSON.parse(stdout) as CheckReport;
    const hops = Object.fromEntries(
      report.checks.filter((c) => c.id.startsWith("hop.")).map((c) => [c.id, c]),
    );
    expect(hops["hop.preflight"]).toMatchObject({ group: "cors", status: "warn" });
    expect(hops["hop.preflight"]!.fix).toContain("Access-Control-Allow-Headers: content-type");
    expect(hops["hop.answer"]).toMatchObject({ status: "warn" });
    expect(hops["hop.answer"]!.fix).toContain(`Send Access-Control-Allow-Origin: ${ORIGIN}`);
    expect(hops["hop.answer"]!.fix).toContain("this Worker's relay gets around it");
  });

  it("runs no hop checks without --origin", async () => {
    const { stdout } = await runCli(["check", server.url, "--json"]);
    const report = JSON.parse(stdout) as CheckReport;
    expect(report.checks.filter((c) => c.id.startsWith("hop."))).toEqual([]);
  });
});
