import { readFileSync } from "node:fs";

/**
 * The installed edgemcp package's version. Found by walking up from this file, which sits in
 * cli/ when run from source and in dist/cli/ when installed.
 */
export function packageVersion(): string {
  for (const relative of ["../package.json", "../../package.json"]) {
    try {
      const json: unknown = JSON.parse(readFileSync(new URL(relative, import.meta.url), "utf8"));
      if (typeof json === "object" && json !== null && "name" in json && json.name === "edgemcp") {
        return "version" in json && typeof json.version === "string" ? json.version : "unknown";
      }
    } catch {
      // Not there from this layout: try the next one.
    }
  }
  return "unknown";
}
