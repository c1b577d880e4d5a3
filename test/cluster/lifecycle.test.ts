import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { rm } from "node:fs/promises";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.ts";
import { SERVED_BY } from "./front.ts";
import { groupMembers } from "./processes.ts";

const MAIN = new URL("./main.ts", import.meta.url).pathname;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === "object" && address ? address.port : 0;
}

/** `npm run cluster` as a user starts it, and the pids and ports it printed. */
async function startMain(workers: number) {
  const port = await freePort();
  const child = spawn(process.execPath, ["--experimental-transform-types", "--no-warnings", MAIN], {
    env: { ...process.env, CLUSTER_WORKERS: String(workers), CLUSTER_PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const printed: string[] = [];
  const lines = createInterface({ input: child.stdout as NonNullable<ChildProcess["stdout"]> });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`npm run cluster exited (${code})`)));
    lines.on("line", (line) => {
      printed.push(line);
      if (line.startsWith("Front")) resolve();
    });
  });
  const pids = printed.flatMap((line) => /\(pid (\d+)\)/.exec(line)?.[1] ?? []).map(Number);
  return { child, port, printed, pids };
}

describe("npm run cluster", () => {
  it("prints every part's port, serves round robin through the front and leaves no process behind on SIGTERM", async () => {
    const { child, port, printed, pids } = await startMain(2);
    expect(printed.join("\n")).toMatch(/Durable Object host: port \d+/);
    expect(printed.join("\n")).toMatch(
      /Worker process 1: port \d+[\s\S]*Worker process 2: port \d+/,
    );
    expect(printed.join("\n")).toContain(`Front (round robin): http://127.0.0.1:${port}`);
    expect(pids).toHaveLength(3);
    // Each part is a process group: its Node process and the workerd under it.
    for (const pid of pids) expect(groupMembers(pid).length).toBeGreaterThanOrEqual(2);

    const servedBy: string[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`http://127.0.0.1:${port}/api/servers`);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      servedBy.push(response.headers.get(SERVED_BY) ?? "");
    }
    expect(new Set(servedBy)).toEqual(new Set(["1", "2"]));
    expect(servedBy[0]).not.toBe(servedBy[1]);

    const exited = once(child, "exit");
    child.kill("SIGTERM");
    expect((await exited)[0]).toBe(0);
    for (const pid of pids) expect(groupMembers(pid), `part ${pid}`).toEqual([]);
    await expect(fetch(`http://127.0.0.1:${port}/api/servers`)).rejects.toThrow();
  });

  it("takes its parts down with it when it is killed outright", async () => {
    const { child, pids, printed } = await startMain(1);
    child.kill("SIGKILL");
    await eventually(async () => pids.every((pid) => groupMembers(pid).length === 0) || undefined, {
      what: "every part to end after the cluster was killed",
      timeoutMs: 20_000,
    });
    // Its temporary state is left behind (nothing of it ran to remove it): remove it here.
    const state = printed.flatMap((line) => /^State: (.+)$/.exec(line)?.[1] ?? [])[0];
    expect(state).toMatch(/edgemcp-cluster-/);
    await rm(state as string, { recursive: true, force: true });
  });
});
