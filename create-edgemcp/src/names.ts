import { basename, resolve } from "node:path";

/**
 * The project name a directory gives: its last segment, which also names the Worker, so it
 * must be what both npm and Cloudflare accept (lower-case letters, digits, dashes; 63 at most).
 */
export function projectName(dir: string): string {
  return basename(resolve(dir));
}

/** Why a name cannot be a package and Worker name, with a name that would do; undefined if fine. */
export function nameProblem(name: string): string | undefined {
  if (/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(name)) return undefined;
  const suggestion = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63);
  const hint = suggestion ? ` Try "${suggestion}".` : "";
  return `"${name}" cannot name a Worker: use lower-case letters, digits and dashes (at most 63, no dash at either end).${hint}`;
}
