import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, release } from "node:os";
import { join } from "node:path";
import { ROOT } from "./paths.ts";
import { WORKERD } from "./workerd.ts";

/** Where and with what the bench ran. */
export type Machine = {
  cores: number;
  cpu: string;
  os: string;
  node: string;
  workerd: string;
  wrangler: string;
  sdk: string;
  commit: string;
  /** 1-minute load average when the run started and when it ended: other work skews figures. */
  load: string;
};

/** The installed version of a package in the repository's node_modules. */
export function packageVersion(name: string): string {
  const file = join(ROOT, "node_modules", name, "package.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

function commit(): string {
  try {
    const hash = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    const dirty = execFileSync("git", ["status", "--porcelain"], { cwd: ROOT, encoding: "utf8" });
    return `${hash.trim()}${dirty.trim() === "" ? "" : " (with uncommitted changes)"}`;
  } catch {
    return "unknown";
  }
}

export function describeMachine(loadAtStart: number): Machine {
  const binary = spawnSync(WORKERD, ["--version"], { encoding: "utf8" }).stdout.trim();
  return {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? "unknown",
    os: `${process.platform} ${release()}`,
    node: process.version,
    workerd: `${binary.replace(/^workerd\s*/, "")} (npm workerd ${packageVersion("workerd")})`,
    wrangler: packageVersion("wrangler"),
    sdk: packageVersion("@modelcontextprotocol/server"),
    commit: commit(),
    load: `${loadAtStart.toFixed(2)} at start, ${loadavg()[0]?.toFixed(2)} at the end`,
  };
}
