import { spawn, type ChildProcess } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { join } from "node:path";
import type { Bundle } from "./build.ts";

/** The workerd binary that wrangler and Miniflare use (from @cloudflare/workerd-<platform>). */
export const WORKERD: string = (() => {
  const mod: unknown = createRequire(import.meta.url)("workerd");
  const path = typeof mod === "object" && mod !== null && "default" in mod ? mod.default : mod;
  if (typeof path !== "string") throw new Error("Cannot find the workerd binary.");
  return path;
})();

/** A free port on 127.0.0.1, as the OS hands it out. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

const quote = (s: string) => JSON.stringify(s);

/** A binding's value: text, or the bytes of a file beside the bundle (an ArrayBuffer in the Worker). */
export type BindingValue = string | { file: string };

/**
 * Writes a workerd config serving the bundle alone on 127.0.0.1:port: one service, one socket,
 * no Miniflare entry Worker in front of it. Returns the config's path.
 */
export function writeConfig(
  bundle: Bundle,
  port: number,
  bindings: Record<string, BindingValue>,
): string {
  const text = Object.entries(bindings)
    .map(([name, value]) =>
      typeof value === "string"
        ? `(name = ${quote(name)}, text = ${quote(value)})`
        : `(name = ${quote(name)}, data = embed ${quote(value.file)})`,
    )
    .join(", ");
  const config = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "index.js", esModule = embed "index.js")],
  compatibilityDate = ${quote(bundle.compatibilityDate)},
  compatibilityFlags = [${bundle.compatibilityFlags.map(quote).join(", ")}],
  bindings = [${text}],
);
`;
  const path = join(bundle.dir, `workerd-${port}.capnp`);
  writeFileSync(path, config);
  return path;
}

/** A running `workerd serve` and what it printed, for error messages. */
export type Workerd = { process: ChildProcess; url: string; log(): string; stop(): Promise<void> };

/** With BENCH_PIN=1: the core workerd runs on, and the one the load generator runs on. */
export const PINNED = { server: "1", load: "0" };
let pinned = false;

export function pinProcesses(on: boolean): void {
  pinned = on;
}

/** A command line, run under `taskset -c <core>` when pinning is on (taskset execs it: same pid). */
export function pinnedCommand(core: string, command: string, args: string[]): [string, string[]] {
  return pinned ? ["taskset", ["-c", core, command, ...args]] : [command, args];
}

/** Starts `workerd serve` on a config; `extra`: more command-line flags (an inspector address). */
export function startWorkerd(configPath: string, port: number, extra: string[] = []): Workerd {
  const [command, args] = pinnedCommand(PINNED.server, WORKERD, ["serve", configPath, ...extra]);
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    process: child,
    url: `http://127.0.0.1:${port}/`,
    log: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      rmSync(configPath, { force: true });
    },
  };
}
