import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/** The READMEs a user reads, beside the package and inside the starter it writes. */
const READMES = [
  "README.md",
  "create-edgemcp/README.md",
  "create-edgemcp/template/README.md",
  "create-edgemcp/template-oauth/README.md.append",
  "worker/mcp/README.md",
];

/** The package's entry points (`edgemcp/server`, ...) and the source file each is built from. */
function entrySources(): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    exports: Record<string, string | { types?: string }>;
  };
  const entries = new Map<string, string>();
  for (const [key, target] of Object.entries(manifest.exports)) {
    if (typeof target === "string" || !target.types) continue;
    const source = target.types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ".ts");
    entries.set(`edgemcp${key.slice(1)}`, join(ROOT, source));
  }
  return entries;
}

/** Every name each entry point exports, values and types, as the compiler resolves them. */
function exportedNames(entries: Map<string, string>): Map<string, Set<string>> {
  const program = ts.createProgram([...entries.values()], {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2023,
    allowImportingTsExtensions: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const names = new Map<string, Set<string>>();
  for (const [entry, file] of entries) {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${entry}: ${file} did not load`);
    names.set(entry, new Set(checker.getExportsOfModule(module).map((symbol) => symbol.name)));
  }
  return names;
}

type Mention = { readme: string; line: number; entry: string; name: string };

/** The code blocks' `import { a, type B } from "edgemcp/..."` and `export { ... } from` lines. */
function importedNames(readme: string, text: string): Mention[] {
  const found: Mention[] = [];
  const statement = /(?:import|export)\s*(?:type\s*)?\{([^}]*)\}\s*from\s*"(edgemcp[^"]*)"/g;
  for (const match of text.matchAll(statement)) {
    const line = text.slice(0, match.index).split("\n").length;
    for (const part of match[1]!.split(",")) {
      const name = part
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)[0]!;
      if (name) found.push({ readme, line, entry: match[2]!, name });
    }
  }
  return found;
}

/** Prose naming where something comes from: "`name` from `edgemcp/...`" (also `name(...)`). */
function proseMentions(readme: string, text: string): Mention[] {
  const found: Mention[] = [];
  const phrase = /`([A-Za-z_$][\w$]*)[^`\n]*`,? from\s+`(edgemcp(?:\/[\w/-]+)?)`/g;
  for (const match of text.matchAll(phrase)) {
    const line = text.slice(0, match.index).split("\n").length;
    found.push({ readme, line, entry: match[2]!, name: match[1]! });
  }
  return found;
}

/** Every `edgemcp/...` a README names as an entry point (in backticks or quotes). */
function entryMentions(readme: string, text: string): Mention[] {
  const found: Mention[] = [];
  for (const match of text.matchAll(/[`"](edgemcp\/[\w/-]+)[`"]/g)) {
    const line = text.slice(0, match.index).split("\n").length;
    found.push({ readme, line, entry: match[1]!, name: "" });
  }
  return found;
}

describe("the READMEs' imports", () => {
  const entries = entrySources();
  const exported = exportedNames(entries);
  const texts = READMES.map(
    (readme) => [readme, readFileSync(join(ROOT, readme), "utf8")] as const,
  );

  it("name only entry points the package exports", () => {
    const unknown = texts
      .flatMap(([readme, text]) => entryMentions(readme, text))
      .filter((mention) => !entries.has(mention.entry))
      .map((m) => `${m.readme}:${m.line} ${m.entry}`);
    expect(unknown).toEqual([]);
  });

  it("import each name from an entry point that exports it, in code and in prose", () => {
    const mentions = texts.flatMap(([readme, text]) => [
      ...importedNames(readme, text),
      ...proseMentions(readme, text),
    ]);
    expect(mentions.length).toBeGreaterThan(20);
    const wrong = mentions
      .filter((m) => !exported.get(m.entry)?.has(m.name))
      .map((m) => `${m.readme}:${m.line} ${m.name} from ${m.entry}`);
    expect(wrong).toEqual([]);
  });
});
