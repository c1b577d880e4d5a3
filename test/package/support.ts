import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod";
import { sh, type Ran } from "../support/sh.ts";

/** `npm install` from the local cache where it can (the registry is the fallback). */
export function npmInstall(cwd: string, specs: string[] = []): Promise<Ran> {
  return sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...specs], cwd);
}

const PackageJson = z.object({
  devDependencies: z.record(z.string(), z.string()),
  peerDependencies: z.record(z.string(), z.string()),
});

/** This repository's package.json: the versions it tests with, and its peer ranges. */
export const ROOT_PACKAGE = PackageJson.parse(
  JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")),
);

/** A dev dependency of this repository as an exact install spec, e.g. `wrangler@4.156.2`. */
export function pinned(name: string): string {
  const version = ROOT_PACKAGE.devDependencies[name];
  if (version === undefined) throw new Error(`${name} is not a dev dependency of this repository`);
  return `${name}@${version}`;
}

/** The lowest version a caret peer range allows, e.g. `^4.5.0` → `4.5.0`. */
export function lowestOf(range: string): string {
  const match = /^\^(\d+\.\d+\.\d+)$/.exec(range);
  if (!match?.[1]) throw new Error(`expected a caret range, got ${range}`);
  return match[1];
}

/** Each package in a bundle, with the install paths it came from (esbuild's path comments). */
export function bundledCopies(bundle: string): Map<string, Set<string>> {
  const copies = new Map<string, Set<string>>();
  for (const [, path = ""] of bundle.matchAll(/^\/\/ (\S*node_modules\/\S+)$/gm)) {
    // Greedy: the last node_modules in the path is the package's own.
    const match = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(path);
    if (!match?.[1] || !match[2]) continue;
    copies.set(match[2], (copies.get(match[2]) ?? new Set()).add(match[1]));
  }
  return copies;
}
