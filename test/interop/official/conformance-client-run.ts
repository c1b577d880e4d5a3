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
    // A scenario the suite skipped leaves its folder without checks: it counts as not run.
    const text = await readFile(join(path, "checks.json"), "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const checks = z.array(CheckSchema).parse(JSON.parse(text));
    run.scenarios.set(name, checks);
    const out = await readFile(join(path, "stdout.txt"), "utf8").catch(() => "");
    const err = await readFile(join(path, "stderr.txt"), "utf8").catch(() => "");
    run.clientOutput.set(name, `${out}${err}`.slice(-4000));
  }
}

/**
 * The client scenarios a revision's requirement set names, scored or not, as `conformance list
 * --client --requirements <revision>` prints them.
 */
export async function requiredClientScenarios(
  pkg: SuitePackage,
  revision: string,
): Promise<string[]> {
  const entry = join(ROOT, "node_modules", pkg, "dist", "index.js");
  const { output } = await run([entry, "list", "--client", "--requirements", revision], 60_000);
  const section = output.split("Client scenarios")[1] ?? "";
  const [required = "", unscored = ""] = section.split("Run and reported, but never scored");
  const names = [...required.matchAll(/^ {2}- (\S+)$/gm)].map((match) => match[1] ?? "");
  const extra = [...unscored.matchAll(/^ {4}- (\S+) \[client\]$/gm)].map((match) => match[1] ?? "");
  return [...names, ...extra];
}

/**
 * Runs `conformance client --scenario <name>` with the project's conformance client for each
 * scenario at `version`, a few at a time: the suite's own `--requirements` starts every client
 * at once, which on a small machine starves them until scenario servers stop answering.
 */
export async function runClientSuite(
  pkg: SuitePackage,
  scenarios: string[],
  args: string[],
  concurrency = 3,
): Promise<ClientRun> {
  const dir = await mkdtemp(join(tmpdir(), `edgemcp-client-${pkg}-`));
  const entry = join(ROOT, "node_modules", pkg, "dist", "index.js");
  const command = "npm run --silent conformance-client --";
  const result: ClientRun = {
    exitCode: 0,
    output: "",
    scenarios: new Map(),
    clientOutput: new Map(),
  };
  try {
    const queue = [...scenarios];
    const worker = async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
        const ran = await run(
          [entry, "client", "--command", command, "--scenario", name, ...args, "-o", dir],
          180_000,
        );
        result.output += ran.output.slice(-2000);
        if (ran.code !== 0) result.exitCode = ran.code;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    await readResults(dir, result);
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
