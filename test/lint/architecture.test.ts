import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { afterEach, describe, expect, it } from "vitest";

const CONFIG = fileURLToPath(new URL("../../eslint.config.js", import.meta.url));

let folder: string | undefined;
afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

/** Lints a tree of files (path: text) with the project's configuration; the problems by file. */
async function lint(files: Record<string, string>): Promise<Record<string, string[]>> {
  folder = await mkdtemp(join(tmpdir(), "edgemcp-lint-"));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), text);
  }
  const eslint = new ESLint({ cwd: folder, overrideConfigFile: CONFIG });
  const problems: Record<string, string[]> = {};
  for (const result of await eslint.lintFiles(Object.keys(files))) {
    const messages = result.messages.map((m) => `${m.ruleId}: ${m.message}`);
    if (messages.length > 0) problems[relative(folder, result.filePath)] = messages;
  }
  return problems;
}

const type = (name: string, from: string) =>
  `import type { ${name} } from "${from}";\nexport type Uses${name} = ${name} | undefined;\n`;

describe("the architecture lint", () => {
  it("finds an import cycle made of type-only imports", async () => {
    const problems = await lint({
      "worker/mcp/a.ts": `${type("B", "./b.ts")}export type A = { kind: "a" };\n`,
      "worker/mcp/b.ts": `${type("A", "./a.ts")}export type B = { kind: "b" };\n`,
    });
    expect(problems["worker/mcp/a.ts"]).toEqual([
      "local/no-cycle: Import cycle (type imports included): worker/mcp/a.ts → worker/mcp/b.ts → worker/mcp/a.ts",
    ]);
  });

  it("accepts the same files when only one imports the other", async () => {
    const problems = await lint({
      "worker/mcp/a.ts": `${type("B", "./b.ts")}export type A = { kind: "a" };\n`,
      "worker/mcp/b.ts": `export type B = { kind: "b" };\n`,
    });
    expect(problems).toEqual({});
  });

  it.each([
    ["worker/mcp/x.ts", "../durable/y.ts", "worker/mcp must not import worker/durable"],
    ["worker/mcp/x.ts", "../hub/y.ts", "worker/mcp must not import worker/hub"],
    ["worker/state/x.ts", "../mcp/y.ts", "state/, auth/ and http/ must not import the MCP runtime"],
    ["worker/auth/x.ts", "../mcp/y.ts", "state/, auth/ and http/ must not import the MCP runtime"],
    ["worker/hub/x.ts", "../mcp/catalog/y.ts", "The hub uses the public server API"],
    ["shared/x.ts", "../worker/y.ts", "shared/ must not import worker/"],
    ["shared/client/x.ts", "../../web/src/y.ts", "shared/ must not import web/"],
    ["shared/x.ts", "../test/y.ts", "shared/ must not import test/"],
    ["web/x.ts", "../shared/y.ts", undefined],
    ["web/x.ts", "../worker/y.ts", "web/ must not import worker/"],
    ["worker/hub/x.ts", "../mcp/index.ts", undefined],
    ["worker/durable/x.ts", "../mcp/ports.ts", undefined],
    ["worker/durable/x.ts", "../mcp/durable.ts", undefined],
    ["worker/durable/x.ts", "../mcp/tasks/y.ts", "durable/ reaches the runtime through"],
    ["worker/durable/x.ts", "../mcp/y.ts", "durable/ reaches the runtime through"],
  ])("%s importing %s: %s", async (file, target, refusal) => {
    const targetFile = join(dirname(file), target);
    const problems = await lint({
      [file]: type("Y", target),
      [targetFile]: "export type Y = 1;\n",
    });
    const found = (problems[file] ?? []).filter((p) => p.startsWith("no-restricted-imports"));
    if (refusal === undefined) expect(found).toEqual([]);
    else expect(found).toEqual([expect.stringContaining(refusal)]);
  });

  it.each([
    ["worker/mcp/call/x.ts", "../context/y.ts", undefined],
    ["worker/mcp/pipeline.ts", "./call/y.ts", undefined],
    ["worker/mcp/context/x.ts", "../call/y.ts", "worker/mcp/context stands below worker/mcp/call"],
    [
      "worker/mcp/define/x.ts",
      "../catalog/y.ts",
      "worker/mcp/define stands below worker/mcp/catalog",
    ],
    [
      "worker/mcp/results/x.ts",
      "../define/y.ts",
      "worker/mcp/results stands below worker/mcp/define",
    ],
    ["worker/mcp/era/x.ts", "../request/y.ts", "worker/mcp/era stands below worker/mcp/request"],
    ["worker/mcp/ports.ts", "./context/y.ts", undefined],
    ["worker/mcp/input/x.ts", "../ports.ts", "worker/mcp/input stands below worker/mcp/ports.ts"],
    ["worker/mcp/call/x.ts", "../helpers/y.ts", "worker/mcp/helpers has no floor"],
  ])("%s importing %s keeps worker/mcp's floors: %s", async (file, target, refusal) => {
    const targetFile = join(dirname(file), target);
    const problems = await lint({
      [file]: type("Y", target),
      [targetFile]: "export type Y = 1;\n",
    });
    const found = (problems[file] ?? []).filter((p) => p.startsWith("local/runtime-floors"));
    if (refusal === undefined) expect(found).toEqual([]);
    else expect(found).toEqual([expect.stringContaining(refusal)]);
  });

  it.each([
    ["web/src/views/request/x.ts", "../call/y.ts", undefined],
    ["web/src/views/shell/x.ts", "../../state/y.ts", undefined],
    [
      "web/src/views/call/x.ts",
      "../request/y.ts",
      "web/src/views/call stands below web/src/views/request",
    ],
    [
      "web/src/views/widgets/x.ts",
      "../form/y.ts",
      "web/src/views/widgets stands below web/src/views/form",
    ],
    [
      "web/src/views/widgets/x.ts",
      "../../state/y.ts",
      "web/src/views/widgets stands below web/src/state",
    ],
    ["web/src/state/x.ts", "../views/panes/y.ts", "web/src/state stands below web/src/views/panes"],
    ["web/src/lib/x.ts", "../state/y.ts", "web/src/lib stands below web/src/state"],
    ["web/src/views/form/x.ts", "../extras/y.ts", "web/src/views/extras has no floor"],
  ])("%s importing %s keeps the playground's floors: %s", async (file, target, refusal) => {
    const targetFile = join(dirname(file), target);
    const problems = await lint({
      [file]: type("Y", target),
      [targetFile]: "export type Y = 1;\n",
    });
    const found = (problems[file] ?? []).filter((p) => p.startsWith("local/playground-floors"));
    if (refusal === undefined) expect(found).toEqual([]);
    else expect(found).toEqual([expect.stringContaining(refusal)]);
  });

  it.each([
    ["web/src/views/x.tsx", 1, 'export const m = (era: string) => era === "modern";\n'],
    ["shared/check/x.ts", 1, 'export const l = (era: string) => "legacy" !== era;\n'],
    [
      "worker/mcp/x.ts",
      1,
      'export const n = (era: string) => {\n  switch (era) {\n    case "legacy":\n      return 1;\n  }\n  return 0;\n};\n',
    ],
    ["shared/check/era/x.ts", 0, 'export const m = (era: string) => era === "modern";\n'],
    ["worker/mcp/era/modern/x.ts", 0, 'export const l = (era: string) => era !== "legacy";\n'],
    ["shared/x.ts", 0, 'export const o = (kind: string) => kind === "modernish";\n'],
  ])("%s: %i era-name comparison(s) refused", async (file, count, text) => {
    const problems = await lint({ [file]: text });
    const found = (problems[file] ?? []).filter((p) => p.startsWith("no-restricted-syntax"));
    expect(found).toEqual(
      Array(count).fill(expect.stringContaining("Compare eras only in an era folder")),
    );
  });
});
