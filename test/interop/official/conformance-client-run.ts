import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import * as z from "zod";
import type { Check, SuitePackage } from "./conformance-run.ts";

const CheckSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  status: z.enum(["SUCCESS", "FAILURE", "WARNING", "INFO", "SKIPPED"]),
  description: z.string(),
  errorMessage: z.string().optional(),
});

/** One run of a suite's client scenarios against `npm run conformance-client`. */
export type ClientRun = {
  exitCode: number | null;
  output: string;
  /** Checks per scenario (`auth/metadata-default`), from `<out>/<scenario>-<timestamp>/checks.json`. */
  scenarios: Map<string, Check[]>;
  /** Each scenario's client output (stdout then stderr), for failure messages. */
  clientOutput: Map<string, string>;
};

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const RESULT_DIR = /^(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

function run(args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output: stripVTControlCharacters(output) });
    });
  });
}

/** Every `<scenario>-<timestamp>` folder under `dir`; auth scenarios nest under `auth/`. */
async function readResults(dir: string, run: ClientRun, base = dir): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    const name = RESULT_DIR.exec(relative(base, path))?.[1];
    if (name === undefined) {
      await readResults(path, run, base);
      continue;
    }
    const checks = z
      .array(CheckSchema)
      .parse(JSON.parse(await readFile(join(path, "checks.json"), "utf8")));
    run.scenarios.set(name, checks);
    const out = await readFile(join(path, "stdout.txt"), "utf8").catch(() => "");
    const err = await readFile(join(path, "stderr.txt"), "utf8").catch(() => "");
    run.clientOutput.set(name, `${out}${err}`.slice(-4000));
  }
}

/** Runs `conformance client --requirements <revision>` with the project's conformance client. */
export async function runClientSuite(
  pkg: SuitePackage,
  args: string[],
  timeoutMs = 600_000,
): Promise<ClientRun> {
  const dir = await mkdtemp(join(tmpdir(), `edgemcp-client-${pkg}-`));
  const entry = join(ROOT, "node_modules", pkg, "dist", "index.js");
  try {
    const command = "npm run --silent conformance-client --";
    const { code, output } = await run(
      [entry, "client", "--command", command, ...args, "-o", dir],
      timeoutMs,
    );
    const result: ClientRun = {
      exitCode: code,
      output,
      scenarios: new Map(),
      clientOutput: new Map(),
    };
    await readResults(dir, result);
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
