import { execFile } from "node:child_process";
import * as z from "zod";

/** How a command ended. */
export type Ran = { code: number; stdout: string; stderr: string };

const Failed = z.object({ code: z.number().optional(), stdout: z.string(), stderr: z.string() });

/** Runs a command to its end, optionally feeding it stdin; a failing exit is returned, not thrown. */
export function sh(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  input?: string,
): Promise<Ran> {
  return new Promise((resolve) => {
    const child = execFile(
      command,
      args,
      { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr });
        const failed = Failed.parse({ ...error, stdout, stderr });
        resolve({ code: failed.code ?? 1, stdout, stderr });
      },
    );
    child.stdin?.end(input ?? "");
  });
}
