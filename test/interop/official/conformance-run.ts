import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import * as z from "zod";

const CheckSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  status: z.enum(["SUCCESS", "FAILURE", "WARNING", "INFO", "SKIPPED"]),
  errorMessage: z.string().optional(),
});

/** One entry of a scenario's checks.json. */
export type Check = z.infer<typeof CheckSchema>;

/** What one run of a conformance suite left behind. */
export type SuiteRun = {
  exitCode: number | null;
  /** stdout and stderr, without colours. */
  output: string;
  /** Checks per scenario, read from `<out>/server-<scenario>-<timestamp>/checks.json`. */
  scenarios: Map<string, Check[]>;
  /** Scenario names from the printed summary (`✓ name: 2 passed, 0 failed`). */
  summary: string[];
};

/** The installed suites, as npm aliases of @modelcontextprotocol/conformance. */
export type SuitePackage = "conformance-next" | "conformance-legacy";

const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;
const SUMMARY_LINE = /^[✓✗] (\S+): \d+ passed, \d+ failed$/gm;

function entryPoint(pkg: SuitePackage): string {
  return fileURLToPath(new URL(`../../../node_modules/${pkg}/dist/index.js`, import.meta.url));
}

function run(args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
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

async function readScenarios(dir: string): Promise<Map<string, Check[]>> {
  const scenarios = new Map<string, Check[]>();
  for (const entry of (await readdir(dir)).sort()) {
    const name = RESULT_DIR.exec(entry)?.[1];
    if (name === undefined) continue;
    const text = await readFile(join(dir, entry, "checks.json"), "utf8");
    scenarios.set(name, z.array(CheckSchema).parse(JSON.parse(text)));
  }
  return scenarios;
}

/** Runs `conformance server --url <url> ...args` in a child Node and reads every checks.json. */
export async function runSuite(
  pkg: SuitePackage,
  url: string,
  args: string[],
  timeoutMs = 180_000,
): Promise<SuiteRun> {
  const dir = await mkdtemp(join(tmpdir(), `edgemcp-${pkg}-`));
  try {
    const { code, output } = await run(
      [entryPoint(pkg), "server", "--url", url, ...args, "-o", dir],
      timeoutMs,
    );
    const summary = [...output.matchAll(SUMMARY_LINE)].map((match) => match[1] ?? "");
    return { exitCode: code, output, scenarios: await readScenarios(dir), summary };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A scenario's FAILURE checks as readable lines: `check-id: error message`. */
export function failuresOf(run: SuiteRun, scenario: string): string[] {
  return (run.scenarios.get(scenario) ?? [])
    .filter((check) => check.status === "FAILURE")
    .map((check) => `${check.id}: ${check.errorMessage ?? check.description}`);
}
