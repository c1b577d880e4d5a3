import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT, WORKERS_DIR } from "./paths.ts";

const run = promisify(execFile);

/** A Worker bundled the way `wrangler deploy` would upload it. */
export type Bundle = {
  worker: string;
  minified: boolean;
  /** Folder holding index.js (and the workerd configs written later). */
  dir: string;
  compatibilityDate: string;
  compatibilityFlags: string[];
};

const WRANGLER = join(ROOT, "node_modules/wrangler/bin/wrangler.js");

/** The shell command that builds one bundle, as the report prints it. */
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

function compatibility(worker: string): Pick<Bundle, "compatibilityDate" | "compatibilityFlags"> {
  const toml = readFileSync(join(WORKERS_DIR, worker, "wrangler.toml"), "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  if (!date) throw new Error(`${worker}/wrangler.toml has no compatibility_date.`);
  return {
    compatibilityDate: date,
    compatibilityFlags: [...flags.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? ""),
  };
}

/** Builds one Worker with `wrangler deploy --dry-run --outdir` (no account, no network). */
export async function build(worker: string, outRoot: string, minified: boolean): Promise<Bundle> {
  const dir = join(outRoot, minified ? `${worker}-min` : worker);
  const [, ...args] = buildCommand(worker, dir, minified);
  try {
    await run(process.execPath, [WRANGLER, ...args], {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" },
    });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`Building ${worker} failed:\n${stdout}\n${stderr}`, { cause: error });
  }
  return { worker, minified, dir, ...compatibility(worker) };
}
