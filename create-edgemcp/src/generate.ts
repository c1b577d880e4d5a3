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
  /** `oauth`: the Worker signs people in (edgemcp/oauth) and every request needs a token. */
  auth?: "none" | "oauth";
};

/** The ways a starter's callers can be authenticated (`--auth`). */
export const AUTH_CHOICES = ["none", "oauth"] as const;

// npm leaves .gitignore files out of packages, so the template keeps it under another name.
const RENAMED: Record<string, string> = { gitignore: ".gitignore" };

/** A template shipped next to the built generator (`dist/` and `template/` are siblings). */
function templateDir(name: string): string {
  return new URL(`../${name}`, import.meta.url).pathname;
}

// An overlay's file replaces the base template's of the same path; `<path>.append` is added to
// the end of the base's file instead.
const APPEND = ".append";

/** The template's files and their text, with the overlays for the chosen options applied. */
function templateFiles(overlays: readonly string[]): Map<string, string> {
  const base = templateDir("template");
  const files = new Map(
    filesUnder(base).map((file) => [file, readFileSync(join(base, file), "utf8")]),
  );
  for (const overlay of overlays) {
    const dir = templateDir(overlay);
    for (const file of filesUnder(dir)) {
      const text = readFileSync(join(dir, file), "utf8");
      if (!file.endsWith(APPEND)) files.set(file, text);
      else {
        const target = file.slice(0, -APPEND.length);
        files.set(target, `${files.get(target) ?? ""}\n${text}`);
      }
    }
  }
  return files;
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
  const written: string[] = [];
  const overlays = project.auth === "oauth" ? ["template-oauth"] : [];
  for (const [file, template] of templateFiles(overlays)) {
    const target = join(project.dir, RENAMED[file] ?? file);
    const text = template
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
