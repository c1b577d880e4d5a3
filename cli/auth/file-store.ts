import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { AuthStore } from "../../shared/client/auth/index.ts";

/**
 * Where the command keeps sign-ins: EDGEMCP_CONFIG_DIR, else the platform's config folder
 * (XDG_CONFIG_HOME or ~/.config, %APPDATA% on Windows, ~/Library/Application Support on macOS).
 */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.EDGEMCP_CONFIG_DIR) return env.EDGEMCP_CONFIG_DIR;
  if (process.platform === "win32" && env.APPDATA) return join(env.APPDATA, "edgemcp");
  if (process.platform === "darwin")
    return join(homedir(), "Library", "Application Support", "edgemcp");
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "edgemcp");
}

/**
 * Sign-ins in one JSON file, `auth.json`, readable by its owner only (0600, in a 0700 folder):
 * per issuer the registered client and tokens by resource, per server URL its issuer. Each save
 * rewrites the file through a temporary one renamed over it, so a crash never leaves half a file.
 */
export function fileStore(dir: string): AuthStore {
  const path = join(dir, "auth.json");
  const read = async (): Promise<Record<string, unknown>> => {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch {
      return {};
    }
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : {};
    } catch {
      return {};
    }
  };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    load: async (key) => (await read())[key],
    save: (key, value) => {
      const next = queue.then(async () => {
        const all = await read();
        if (value === undefined) delete all[key];
        else all[key] = value;
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const temporary = `${path}.${process.pid}.tmp`;
        await writeFile(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
        await chmod(temporary, 0o600);
        await rename(temporary, path);
      });
      queue = next.catch(() => {});
      return next;
    },
  };
}
