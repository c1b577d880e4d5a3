import { spawnSync } from "node:child_process";

/** The package manager that ran the generator (`npm create`, `pnpm create`, ...), npm by default. */
export function packageManager(userAgent: string | undefined): "npm" | "pnpm" | "yarn" | "bun" {
  const name = userAgent?.split("/")[0];
  return name === "pnpm" || name === "yarn" || name === "bun" ? name : "npm";
}

/** Runs a command in the project, its output shown; true when it succeeded. */
function run(command: string, args: string[], cwd: string): boolean {
  const result = spawnSync(command, args, {
    cwd,
    stdio: "inherit",
    shell: process.platform === "win32",
  });
  return result.status === 0;
}

// How each package manager runs a dependency's command.
const EXEC: Record<ReturnType<typeof packageManager>, string[]> = {
  npm: ["npx"],
  pnpm: ["pnpm", "exec"],
  yarn: ["yarn"],
  bun: ["bunx"],
};

/**
 * Installs the dependencies, then has wrangler write `worker-configuration.d.ts` (the `Env`
 * and runtime types) so the project type-checks from the start.
 */
export function install(dir: string, manager: ReturnType<typeof packageManager>): boolean {
  if (!run(manager, ["install"], dir)) return false;
  const [command = "npx", ...prefix] = EXEC[manager];
  return run(command, [...prefix, "wrangler", "types"], dir);
}
