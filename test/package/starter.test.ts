import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sh, type Ran } from "../support/sh.ts";
import { bundledCopies } from "./support.ts";

let parent: string;
let project: string;

/** Runs the packed create-edgemcp, as `npm create edgemcp@latest` would, in `parent`. */
function create(args: string[]): Promise<Ran> {
  const spec = `file:${inject("edgemcpTarball")}`;
  return sh(
    "npx",
    ["--yes", "--package", inject("createTarball"), "create-edgemcp", ...args, "--edgemcp", spec],
    parent,
    { npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false" },
  );
}

/** Every file the generator wrote (what npm and wrangler add left out). */
async function written(dir: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  const files = await Promise.all(
    entries
      .filter((entry) => !["node_modules", "package-lock.json", ".wrangler"].includes(entry.name))
      .map((entry) =>
        entry.isDirectory()
          ? written(dir, join(prefix, entry.name))
          : Promise.resolve([join(prefix, entry.name)]),
      ),
  );
  return files.flat().sort();
}

const SECRET_LINE = /^EDGEMCP_SECRET="([A-Za-z0-9_-]{43})"$/m;

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), "edgemcp-starter-"));
  project = join(parent, "my-server");
  const created = await create(["my-server"]);
  expect(created.code, created.stderr).toBe(0);
});

afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

describe("npm create edgemcp", () => {
  it("writes the starter, filled in, with its types generated", async () => {
    expect(await written(project)).toEqual([
      ".dev.vars",
      ".gitignore",
      "README.md",
      "package.json",
      "src/index.ts",
      "src/server.ts",
      "test/index.test.ts",
      "test/tsconfig.json",
      "tsconfig.json",
      "vitest.config.ts",
      "worker-configuration.d.ts",
      "wrangler.toml",
    ]);
    for (const file of ["package.json", "wrangler.toml", "src/server.ts", "README.md"]) {
      const text = await readFile(join(project, file), "utf8");
      expect(text, file).toContain("my-server");
      expect(text, file).not.toContain("{{");
    }
    const wrangler = await readFile(join(project, "wrangler.toml"), "utf8");
    expect(wrangler).toMatch(/^compatibility_flags = \["enable_request_signal"\]$/m);
    expect(await readFile(join(project, ".gitignore"), "utf8")).toMatch(/^\.dev\.vars$/m);
  });

  it("puts a random 256-bit secret in .dev.vars, a new one for every project", async () => {
    const first = SECRET_LINE.exec(await readFile(join(project, ".dev.vars"), "utf8"))?.[1];
    const again = await create(["second-server", "--skip-install"]);
    expect(again.code, again.stderr).toBe(0);
    const second = join(parent, "second-server", ".dev.vars");
    const other = SECRET_LINE.exec(await readFile(second, "utf8"))?.[1];
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(other).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(other).not.toBe(first);
  });

  it("refuses a directory name a Worker cannot have, suggesting one", async () => {
    const refused = await create(["My_Server", "--skip-install"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Try "my-server"');
  });

  it("refuses to write into a directory that is not empty", async () => {
    await mkdir(join(parent, "taken"));
    await writeFile(join(parent, "taken", "notes.txt"), "mine");
    const refused = await create(["taken", "--skip-install"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is not empty");
    expect(await readdir(join(parent, "taken"))).toEqual(["notes.txt"]);
  });

  it("passes its own tests (vitest in workerd)", async () => {
    const tested = await sh("npm", ["test"], project);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(stripVTControlCharacters(tested.stdout)).toMatch(/Tests\s+5 passed \(5\)/);
  });

  it("type-checks its Worker and its tests", async () => {
    const checked = await sh("npm", ["run", "typecheck"], project);
    expect(checked.code, checked.stdout).toBe(0);
  });

  it("builds a Worker with one copy of zod and no Hono", async () => {
    const built = await sh("npx", ["wrangler", "deploy", "--dry-run", "--outdir", "out"], project);
    expect(built.code, built.stderr).toBe(0);
    const copies = bundledCopies(await readFile(join(project, "out", "index.js"), "utf8"));
    expect([...(copies.get("zod") ?? [])]).toEqual(["node_modules/zod"]);
    expect(copies.has("hono")).toBe(false);
  });
});
