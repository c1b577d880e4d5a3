import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { sh } from "../../support/sh.ts";

/** The official MCP Python SDK the cross-language suite drives, pinned. */
export const PYTHON_MCP_VERSION = "2.3.0";

const CACHE = resolve("node_modules/.cache/edgemcp-python", `mcp-${PYTHON_MCP_VERSION}`);

/**
 * The Python of a virtual environment holding `mcp` at the pinned version, made once and kept
 * under node_modules/.cache (keyed by the version, so a new pin makes a new one): reruns start
 * at once. Needs `python3` with its venv module (.ci/run installs python3-venv).
 */
export async function pythonWithSdk(): Promise<string> {
  const python = join(CACHE, "bin", "python");
  const marker = join(CACHE, "installed");
  if (existsSync(marker)) return python;
  // A half-made environment (an earlier run stopped midway) is made again from the start.
  await rm(CACHE, { recursive: true, force: true });
  await mkdir(resolve(CACHE, ".."), { recursive: true });
  const venv = await sh("python3", ["-m", "venv", CACHE], process.cwd());
  if (venv.code !== 0)
    throw new Error(
      `python3 -m venv failed (install python3 and python3-venv): ${venv.stderr.trim()}`,
    );
  // Few retries: an index that cannot be reached should fail fast, not after minutes of backoff.
  const pip = await sh(
    join(CACHE, "bin", "pip"),
    [
      "install",
      "--quiet",
      "--disable-pip-version-check",
      "--retries",
      "1",
      "--timeout",
      "30",
      `mcp==${PYTHON_MCP_VERSION}`,
    ],
    process.cwd(),
  );
  if (pip.code !== 0)
    throw new Error(
      `pip install mcp==${PYTHON_MCP_VERSION} failed: ${pip.stderr.trim().slice(-2000)}`,
    );
  await writeFile(marker, `mcp==${PYTHON_MCP_VERSION}\n`);
  return python;
}
