import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * The arguments a POSIX shell hands to the curl of `command` (comment lines and all), with
 * `env` set: curl is swapped for printf, one word a line, so a test sees what the shell made of
 * the quoting without a server. Words must not hold newlines.
 */
export async function shellWords(command: string, env: Record<string, string> = {}) {
  const script = command.replace(/^curl /m, `printf '%s\\n' `);
  const { stdout } = await run("sh", ["-c", script], { env: { ...process.env, ...env } });
  return stdout.split("\n").slice(0, -1);
}
