import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** What a generated project is made of. */
export type Project = {
  /** Where to write it (created; must be empty if it exists). */
  dir: string;
  /** The package and Worker name. */
  name: string;
  /** The version range (or tarball, or path) of edgemcp to depend on. */
  edgemcp: string;
};

// npm leaves .gitignore files out of packages, so the template keeps it under another name.
const RENAMED: Record<string, string> = { gitignore: ".gitignore" };

/** The template shipped next to the built generator (`dist/` and `template/` are siblings). */
function templateDir(): string {
  return new URL("../template", import.meta.url).pathname;
}

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = join(prefix, entry.name);
    return entry.isDirectory() ? filesUnder(dir, path) : [path];
  });
}

/** The secret that seals handles, cursors and requestState in development: 256 random bits. */
export function devSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** Writes the project: the template with its placeholders filled, and a `.dev.vars`. */
export function generate(project: Project): string[] {
  if (existsSync(project.dir) && readdirSync(project.dir).length > 0) {
    throw new Error(`${project.dir} is not empty: choose a new directory.`);
  }
  const template = templateDir();
  const written: string[] = [];
  for (const file of filesUnder(template)) {
    const target = join(project.dir, RENAMED[file] ?? file);
    const text = readFileSync(join(template, file), "utf8")
      .replaceAll("{{name}}", project.name)
      .replaceAll("{{edgemcp}}", project.edgemcp);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    written.push(RENAMED[file] ?? file);
  }
  writeFileSync(
    join(project.dir, ".dev.vars"),
    `# Local secrets for wrangler dev (never commit this file; it is in .gitignore).\n` +
      `# In production set it with: npx wrangler secret put EDGEMCP_SECRET\n` +
      `EDGEMCP_SECRET="${devSecret()}"\n`,
    { mode: 0o600 },
  );
  written.push(".dev.vars");
  return written.sort();
}
