// A local topology that mirrors a deployment: N stateless Worker processes serving the same
// bundle, the Durable Object classes hosted once in a process of their own (found through
// Miniflare's dev registry, as wrangler's script_name bindings are), a round-robin front on one
// port. Every part is a separate OS process group, stopped with the cluster.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { MIGRATIONS } from "../support/migrations.ts";
import { startFront, type Front } from "./front.ts";
import { buildBundle, HOST_NAME, workerOptions } from "./options.ts";
import type { PartSettings } from "./part.ts";
import { forgetInstance } from "./registry.ts";

const PART = new URL("./part.ts", import.meta.url).pathname;
/** How long a part may take to start (workerd boots, the bundle loads) before it is a failure. */
const START_MS = 60_000;
/** How long a part may take to stop on SIGTERM before it is killed. */
const STOP_MS = 5_000;

export type Part = {
  name: string;
  port: number;
  pid: number;
  process: ChildProcess;
  /** Its Miniflare instance's id in the dev registry. */
  instanceId: string;
};

export type ClusterOptions = {
  /** Worker processes (default 3). */
  workers?: number;
  /** The front's port (0: any free one). */
  port?: number;
  /** Bindings of every part over wrangler.toml's vars (secrets, limits). */
  bindings: Record<string, string>;
  /** Extra bindings of one Worker process, by index (a rotated secret on some of them). */
  workerBindings?: Record<number, Record<string, string>>;
  /**
   * A bundle built already (`buildBundle`), shared by clusters one after another; default: one
   * built into the cluster's folder.
   */
  bundle?: string;
  /** Told each part's output line by line (default: dropped). */
  log?: (part: string, line: string) => void;
};

export type Cluster = {
  /** The front's URL, e.g. http://127.0.0.1:8787 */
  url: string;
  /** The cluster's temporary folder (bundle, registry, state), removed by stop(). */
  root: string;
  front: Front;
  host: Part;
  workers: (Part | undefined)[];
  /** Kills Worker process `index` (0-based) at once (SIGKILL to its process group). */
  kill(index: number): void;
  /** Starts Worker process `index` again (after kill), with `bindings` over the cluster's. */
  restart(index: number, bindings?: Record<string, string>): Promise<Part>;
  /** Kills the Durable Object host at once. */
  killHost(): void;
  /**
   * Starts the Durable Object host again on its state (its Durable Objects' storage, kept in
   * the cluster's folder); its port changes, and the Worker processes learn the new one
   * through the registry.
   */
  restartHost(): Promise<Part>;
  stop(): Promise<void>;
};

/** Whether a process (group) is still there. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(part: Part, signal: NodeJS.Signals): void {
  try {
    process.kill(-part.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Stops a part: SIGTERM to its group, then SIGKILL if it has not gone in STOP_MS. */
async function stopPart(part: Part): Promise<void> {
  if (part.process.exitCode !== null || part.process.signalCode !== null) {
    killGroup(part, "SIGKILL");
    return;
  }
  const exited = once(part.process, "exit");
  killGroup(part, "SIGTERM");
  const timer = setTimeout(() => killGroup(part, "SIGKILL"), STOP_MS);
  await exited;
  clearTimeout(timer);
  // workerd under it, should it have outlived its parent.
  killGroup(part, "SIGKILL");
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const count = options.workers ?? 3;
  const root = await mkdtemp(join(tmpdir(), "edgemcp-cluster-"));
  const bundle = options.bundle ?? join(root, "bundle");
  const registry = join(root, "registry");
  const state = join(root, "state");
  if (!options.bundle) buildBundle(bundle);
  const log = options.log ?? (() => {});

  const launch = async (
    role: "host" | "worker",
    id: string,
    bindings: Record<string, string>,
    first = false,
  ): Promise<Part> => {
    const name = role === "host" ? HOST_NAME : `edgemcp-${id}`;
    const settings: PartSettings = {
      role,
      id,
      registry,
      state,
      port: 0,
      worker: workerOptions(role, name, bundle, bindings),
      ...(first ? { migrations: MIGRATIONS } : {}),
    };
    const child = spawn(
      process.execPath,
      ["--experimental-transform-types", "--no-warnings", PART, JSON.stringify(settings)],
      // Its own process group (killed whole, workerd included); stdin held so it ends with us.
      { detached: true, stdio: ["pipe", "pipe", "pipe"] },
    );
    const pid = child.pid as number;
    const label = role === "host" ? "host" : `worker ${id}`;
    createInterface({ input: child.stderr }).on("line", (line) => log(label, line));
    const lines = createInterface({ input: child.stdout });
    const [port, instanceId] = await new Promise<[number, string]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${label} did not start`)), START_MS);
      child.once("exit", (code) => reject(new Error(`${label} exited (${code}) while starting`)));
      lines.on("line", (line) => {
        const ready = /^ready (\d+) (\S+)$/.exec(line);
        if (ready) {
          clearTimeout(timer);
          resolve([Number(ready[1]), ready[2] as string]);
        } else log(label, line);
      });
    }).catch(async (error: unknown) => {
      killGroup({ name, port: 0, pid, process: child, instanceId: "" }, "SIGKILL");
      throw error;
    });
    return { name, port, pid, process: child, instanceId };
  };

  const bindingsOf = (index: number, extra: Record<string, string> = {}) => ({
    ...options.bindings,
    ...options.workerBindings?.[index],
    ...extra,
  });
  /** What a killed part registered, removed now and once it has surely exited. */
  const forget = (part: Part) => {
    forgetInstance(registry, part.name, part.instanceId);
    part.process.once("exit", () => forgetInstance(registry, part.name, part.instanceId));
  };
  let host: Part | undefined;
  const workers: (Part | undefined)[] = [];
  let front: Front | undefined;
  const stopAll = async () => {
    await front?.close();
    await Promise.all(workers.map((part) => part && stopPart(part)));
    if (host) await stopPart(host);
    await rm(root, { recursive: true, force: true });
  };
  try {
    // The host first: it owns the shared storage (the oldest process of the cluster).
    host = await launch("host", "host", options.bindings, true);
    workers.push(
      ...(await Promise.all(
        Array.from({ length: count }, (_, index) =>
          launch("worker", String(index + 1), bindingsOf(index)),
        ),
      )),
    );
    front = await startFront(
      options.port ?? 0,
      workers.map((part) => part?.port),
    );
  } catch (error) {
    await stopAll();
    throw error;
  }
  const started = front;
  const cluster: Cluster = {
    url: `http://127.0.0.1:${started.port}`,
    root,
    front: started,
    host,
    workers,
    kill(index) {
      const part = workers[index];
      if (!part) return;
      killGroup(part, "SIGKILL");
      forget(part);
      workers[index] = undefined;
      started.backends[index] = undefined;
    },
    async restart(index, bindings) {
      const old = workers[index];
      if (old) {
        await stopPart(old);
        forgetInstance(registry, old.name, old.instanceId);
      }
      const part = await launch("worker", String(index + 1), bindingsOf(index, bindings));
      workers[index] = part;
      started.backends[index] = part.port;
      return part;
    },
    killHost() {
      killGroup(cluster.host, "SIGKILL");
      forget(cluster.host);
    },
    async restartHost() {
      await stopPart(cluster.host);
      forgetInstance(registry, cluster.host.name, cluster.host.instanceId);
      host = await launch("host", "host", options.bindings);
      cluster.host = host;
      return host;
    },
    stop: stopAll,
  };
  return cluster;
}

export { alive };
