import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startThirdParty, type ThirdPartyServer } from "../support/third-party/servers.ts";
import { startLegacySessionServer } from "../interop/edge-client/legacy-session-server.ts";
import { runCli } from "./cli.ts";

describe("edgemcp call and 2025-11-25 tasks", () => {
  let everything: ThirdPartyServer;
  let sdk: Awaited<ReturnType<typeof startLegacySessionServer>>;
  beforeAll(async () => {
    [everything, sdk] = await Promise.all([
      startThirdParty("everything"),
      startLegacySessionServer(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([everything?.stop(), sdk?.close()]);
  });

  it("runs server-everything's task-required tool as a task, each status on stderr", async () => {
    const args = JSON.stringify({ topic: "tides" });
    const ran = await runCli(["call", everything.url, "simulate-research-query", "--args", args]);
    expect(ran.stderr, everything.output()).not.toContain("requires task augmentation");
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain("# Research Report: tides");
    const lines = ran.stderr.trim().split("\n");
    expect(lines[0]).toMatch(/^task \S+ working/);
    expect(lines).toContainEqual(
      expect.stringMatching(/^task \S+ working: Gathering sources\.\.\.$/),
    );
    expect(lines.at(-1)).toMatch(/^task \S+ completed/);
    // One line per change, not one per poll.
    expect(new Set(lines).size).toBe(lines.length);
  });

  it("says a task that outlives --timeout timed out after how long, naming the task it cancelled", async () => {
    const args = JSON.stringify({ topic: "tides" });
    const ran = await runCli([
      "call",
      everything.url,
      "simulate-research-query",
      "--args",
      args,
      "--timeout",
      "1500",
    ]);
    expect(ran.code).toBe(1);
    const taskId = /^task (\S+) working/m.exec(ran.stderr)?.[1];
    expect(ran.stderr.trim().split("\n").at(-1)).toBe(
      `The call did not finish within 1.5 s (--timeout): it ran as task ${taskId}, which the server was told to cancel.`,
    );
    expect(ran.stderr).not.toContain("tasks/get");
  });

  it("answers the input a task asks for with --answer, on the tasks/result stream", async () => {
    const ran = await runCli([
      "call",
      sdk.url,
      "research",
      "--args",
      JSON.stringify({ topic: "ports", ask: true }),
      "--answer",
      JSON.stringify({ elicitation: { action: "accept", content: { angle: "trade" } } }),
    ]);
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe("report on ports (trade)");
    expect(ran.stderr).toMatch(/^task \S+ input_required: Which angle\?$/m);
  });

  it("ends the session it opened: the background stream is closed and the session deleted", async () => {
    sdk.requests.length = 0;
    const ran = await runCli(["call", sdk.url, "plain"]);
    expect(ran.code).toBe(0);
    expect(sdk.requests).toContain("GET");
    expect(sdk.requests.at(-1)).toBe("DELETE");
  });
});
