import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.ts";
import { startThirdParty, type ThirdPartyServer } from "../support/third-party/servers.ts";
import { serverUrl } from "../interop/support/clients.ts";
import { runCli, startCli } from "./cli.ts";
import { startRecordingProxy, type RecordingProxy } from "./recording-proxy.ts";

describe("Ctrl-C during edgemcp call", () => {
  let everything: ThirdPartyServer;
  let proxy: RecordingProxy;
  beforeAll(async () => {
    everything = await startThirdParty("everything");
    proxy = await startRecordingProxy(everything.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await everything?.stop();
  });

  it("closes a 2026 call's stream, which the Worker sees as the cancellation, and exits 130", async () => {
    const label = `cli-interrupt-${randomUUID()}`;
    const url = serverUrl("everything").href;
    const args = JSON.stringify({ steps: 400, delayMs: 50, label });
    const running = startCli(["call", url, "test_slow_counter", "--args", args]);
    await running.stderrMatches(/^progress 1\/400/m);
    running.child.kill("SIGINT");
    const { code } = await running.ended;
    expect(code).toBe(130);
    expect(running.stderr()).toContain("Cancelling the call… (Ctrl-C again quits at once)\n");
    expect(running.stderr()).toMatch(/^Interrupted: the server was told to cancel the call\.\n$/m);
    const status = await eventually(
      async () => {
        const ran = await runCli([
          "call",
          url,
          "test_abort_status",
          "--args",
          JSON.stringify({ label }),
        ]);
        return ran.stdout.startsWith("aborted") ? ran.stdout : undefined;
      },
      { intervalMs: 100, what: `the Worker noting the abort of ${label}` },
    );
    expect(status).toMatch(new RegExp(`^aborted: ${label} at step \\d+`));
  });

  it("sends a 2025 server notifications/cancelled for the call's request id", async () => {
    proxy.posted.length = 0;
    const args = JSON.stringify({ duration: 30, steps: 30 });
    const running = startCli(["call", proxy.url, "trigger-long-running-operation", "--args", args]);
    await running.stderrMatches(/^progress 1\/30/m);
    running.child.kill("SIGINT");
    const { code } = await running.ended;
    expect(code).toBe(130);
    const call = proxy.posted.find((m) => m.method === "tools/call");
    const cancelled = proxy.posted.filter((m) => m.method === "notifications/cancelled");
    expect(call?.id).toBeDefined();
    expect(cancelled.map((m) => m.params?.requestId)).toEqual([call?.id]);
    expect(running.stderr()).toMatch(/^Interrupted: the server was told to cancel the call\.$/m);
  });

  it("cancels a task-augmented call with tasks/cancel, naming the task", async () => {
    proxy.posted.length = 0;
    const args = JSON.stringify({ topic: "tides" });
    const running = startCli(["call", proxy.url, "simulate-research-query", "--args", args]);
    await running.stderrMatches(/^task \S+ working/m);
    running.child.kill("SIGINT");
    const { code } = await running.ended;
    expect(code).toBe(130);
    const taskId = /^task (\S+) working/m.exec(running.stderr())?.[1];
    const cancels = proxy.posted.filter((m) => m.method === "tasks/cancel");
    expect(cancels.map((m) => m.params?.taskId)).toEqual([taskId]);
    expect(running.stderr()).toContain(
      `Interrupted: the server was told to cancel the call (task ${taskId}).`,
    );
  });

  it("exits at once on a second Ctrl-C while the cancellation goes unanswered", async () => {
    proxy.posted.length = 0;
    proxy.stall.add("notifications/cancelled");
    try {
      const args = JSON.stringify({ duration: 30, steps: 30 });
      const running = startCli([
        "call",
        proxy.url,
        "trigger-long-running-operation",
        "--args",
        args,
      ]);
      await running.stderrMatches(/^progress 1\/30/m);
      running.child.kill("SIGINT");
      await running.stderrMatches(/^Cancelling the call/m);
      await eventually(
        async () =>
          proxy.posted.some((m) => m.method === "notifications/cancelled") ? true : undefined,
        { intervalMs: 20, what: "the cancellation reaching the proxy" },
      );
      running.child.kill("SIGINT");
      const { code } = await running.ended;
      expect(code).toBe(130);
      expect(running.stderr()).not.toContain("Interrupted:");
    } finally {
      proxy.stall.delete("notifications/cancelled");
    }
  });
});
