import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./paths.ts";

const run = promisify(execFile);

/** A Worker bundled the way `wrangler deploy` would upload it. */
export type Bundle = {
  /** The contender it is built for (its folder name, or `baseline-<folder>`). */
  worker: string;
  minified: boolean;
  /** Folder holding index.js (and the workerd configs written later). */
  dir: string;
  compatibilityDate: string;
  compatibilityFlags: string[];
};

// This checkout's wrangler builds every Worker, the baseline's too: one bundler for both sides.
const WRANGLER = join(ROOT, "node_modules/wrangler/bin/wrangler.js");

/** The shell command that builds one bundle (run in the checkout's root), as the report prints it. */
export function buildCommand(worker: string, outDir: string, minified: boolean): string[] {
  return [
    "wrangler",
    "deploy",
    "--dry-run",
    ...(minified ? ["--minify"] : []),
    "--outdir",
    outDir,
    "--config",
    `test/bench/workers/${worker}/wrangler.toml`,
  ];
}

function compatibility(config: string): Pick<Bundle, "compatibilityDate" | "compatibilityFlags"> {
  const toml = readFileSync(config, "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  if (!date) throw new Error(`${config} has no compatibility_date.`);
  return {
    compatibilityDate: date,
    compatibilityFlags: [...flags.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? ""),
  };
}

/**
 * Builds the Worker of test/bench/workers/<worker> in the checkout `root` (this one unless
 * given) with `wrangler deploy --dry-run --outdir` (no account, no network), into
 * `outRoot/<key>` (`-min` appended when minified); `key` is the worker's name unless given.
 */
export async function build(
  worker: string,
  outRoot: string,
  minified: boolean,
  root = ROOT,
  key = worker,
): Promise<Bundle> {
  const dir = join(outRoot, minified ? `${key}-min` : key);
  const [, ...args] = buildCommand(worker, dir, minified);
  try {
    await run(process.execPath, [WRANGLER, ...args], {
      cwd: root,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" },
    });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`Building ${worker} in ${root} failed:\n${stdout}\n${stderr}`, {
      cause: error,
    });
  }
  const config = join(root, "test/bench/workers", worker, "wrangler.toml");
  return { worker: key, minified, dir, ...compatibility(config) };
}
