import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

// The built page (npm test builds it first, as the browser tests need it).
const DIST = join(import.meta.dirname, "..", "..", "web", "dist");
const BUDGET = 100 * 1024;
// oauth4webapi names itself in its User-Agent: present wherever its code is.
const OAUTH_MARK = "oauth4webapi/v";

const read = (path: string) => readFileSync(join(DIST, path));

/** The scripts a module imports statically (`import … from "./x.js"`), not `import("./x.js")`. */
function staticImports(path: string): string[] {
  const text = read(path).toString("utf8");
  const found = [...text.matchAll(/(?:\bfrom|\bimport)\s*["`](\.\/[^"`]+\.js)["`]/g)].map(
    (m) => `/assets/${m[1]!.slice(2)}`,
  );
  return [...new Set(found)];
}

/** Everything the first screen downloads: the page, its stylesheet and every script it runs at once. */
function firstLoad(): string[] {
  const html = read("index.html").toString("utf8");
  const linked = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1]!,
  );
  const files = new Set(["/index.html", ...linked]);
  const queue = linked.filter((path) => path.endsWith(".js"));
  for (let path = queue.shift(); path !== undefined; path = queue.shift())
    for (const next of staticImports(path))
      if (!files.has(next)) {
        files.add(next);
        queue.push(next);
      }
  return [...files];
}

describe("the playground's first load", () => {
  it("stays within 100 KB gzip, counting every script the entry imports statically", () => {
    const files = firstLoad();
    const gzip = files.reduce((sum, path) => sum + gzipSync(read(path), { level: 9 }).length, 0);
    expect(files.some((path) => path.endsWith(".css"))).toBe(true);
    expect(gzip, files.join(", ")).toBeLessThanOrEqual(BUDGET);
  });

  it("holds none of the sign-in's OAuth code, which a chunk loaded on demand does", () => {
    const first = firstLoad();
    for (const path of first) expect(read(path).toString("utf8"), path).not.toContain(OAUTH_MARK);
    const html = read("index.html").toString("utf8");
    const entry = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? "";
    const lazy = [
      ...read(entry)
        .toString("utf8")
        .matchAll(/import\(["`]\.\/([^"`]+\.js)["`]\)/g),
    ].map((m) => `/assets/${m[1]}`);
    expect(lazy.some((path) => read(path).toString("utf8").includes(OAUTH_MARK))).toBe(true);
  });
});
