// `node --experimental-transform-types --no-warnings test/bench/path.ts`: the modules of worker/mcp
// (and worker/hub) that one request enters, in order. A tracer, not a profiler: the bench's
// edgemcp and hub Workers are bundled with esbuild, every function of worker/mcp and worker/hub
// first records its module, and one request per case is served in this Node process after a
// warm-up request (the first builds the catalog). A module is entered when one of its functions
// is called from another module (or by the runtime: a promise callback); its calls to itself are
// not entries, and consecutive entries from the same module are one; getters and setters (reads
// of a value, such as a server's name) are not traced. Prints each entry with its
// functions and where it came from, and marks a module entered again. Not in the package.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import * as esbuild from "esbuild";
import ts from "typescript";
import {
  fileAt,
  registerWorkersStandIn,
  scenarioCase,
  sendInNode,
  sourceMap,
  type Handler,
} from "./in-node.ts";
import { ROOT, WORKERS_DIR } from "./paths.ts";
import type { BenchRequest } from "./wire.ts";

registerWorkersStandIn();

const TRACED = /[\\/]worker[\\/](mcp|hub)[\\/].*\.ts$/;

/** The source with `__pathEnter("module")` as the first thing every function with a body does. */
function instrument(file: string, text: string): string {
  const module = relative(ROOT, file).replaceAll("\\", "/");
  const call = `__pathEnter(${JSON.stringify(module)})`;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits: { at: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    // A getter or setter is a read of a value the module made, not a step of the request.
    const accessor = ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node);
    if (ts.isFunctionLike(node) && !accessor && "body" in node && node.body) {
      const body = node.body as ts.Node;
      if (ts.isBlock(body)) edits.push({ at: body.getStart(source) + 1, text: `${call};` });
      else {
        edits.push({ at: body.getStart(source), text: `(${call}, (` });
        edits.push({ at: body.getEnd(), text: "))" });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let out = text;
  for (const edit of edits.sort((a, b) => b.at - a.at))
    out = out.slice(0, edit.at) + edit.text + out.slice(edit.at);
  return out;
}

const tracer: esbuild.Plugin = {
  name: "path-tracer",
  setup(build) {
    build.onLoad({ filter: TRACED }, (args) => ({
      contents: instrument(args.path, readFileSync(args.path, "utf8")),
      loader: "ts",
    }));
  },
};

async function bundle(worker: "edgemcp" | "hub"): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [`${WORKERS_DIR}${worker}/index.ts`],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    write: false,
    external: ["cloudflare:workers"],
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "import"],
    alias: {
      "edgemcp/server": `${ROOT}worker/mcp/index.ts`,
      "edgemcp/hub": `${ROOT}worker/hub/index.ts`,
    },
    plugins: [tracer],
    logLevel: "error",
  });
  return result.outputFiles[0]!.text;
}

/** One entry into a module: a function of it called from another module, or by the runtime. */
type Entry = { module: string; fn: string; from: string };
let recording: Entry[] | undefined;
/** The bundle's modules by line: esbuild's `// path` comment before each module's code. */
let modulesByLine: { line: number; file: string }[] = [];
const moduleAt = (line: number) => fileAt(modulesByLine, line).replace(/^.*?(?=worker\/)/, "");
function enter(module: string): void {
  if (!recording) return;
  const prepare = Error.prepareStackTrace;
  Error.prepareStackTrace = (_, sites) => sites;
  const holder: { stack?: NodeJS.CallSite[] } = {};
  Error.captureStackTrace(holder, enter);
  const sites = holder.stack ?? [];
  Error.prepareStackTrace = prepare;
  // The nearest caller in the bundle: a callback that a built-in calls (Array.prototype.map,
  // String.prototype.replace) was called from where the built-in was.
  const caller = sites.slice(1).find((site) => site.getFileName()?.startsWith("data:"));
  const from = caller ? moduleAt((caller.getLineNumber() ?? 1) - 1) : "(runtime)";
  if (from === module) return;
  const fn = sites[0]?.getFunctionName() ?? "(anonymous)";
  const last = recording.at(-1);
  // Consecutive entries into one module from the same one are one visit.
  if (last && last.module === module && last.from === from) {
    if (!last.fn.split(", ").includes(fn)) last.fn += `, ${fn}`;
  } else recording.push({ module, fn, from });
}
(globalThis as { __pathEnter?: typeof enter }).__pathEnter = enter;

const env = { N_TOOLS: "1", EDGEMCP_SECRET: randomBytes(32).toString("hex") };
const send = (handler: Handler, r: BenchRequest) => sendInNode(handler, env, r);

const cases = [scenarioCase("echo"), scenarioCase("echo-2025"), scenarioCase("hub", "hub")];

const short = (module: string) => module.replace(/^worker\/mcp\//, "");
const loaded = new Map<string, { handler: Handler; lines: typeof modulesByLine }>();
for (const c of cases) {
  let worker = loaded.get(c.worker);
  if (!worker) {
    const code = await bundle(c.worker);
    const lines = sourceMap(code);
    const url = `data:text/javascript;base64,${Buffer.from(code).toString("base64")}`;
    const handler = ((await import(url)) as { default: Handler }).default;
    worker = { handler, lines };
    loaded.set(c.worker, worker);
  }
  modulesByLine = worker.lines;
  for (const before of c.before ?? []) await send(worker.handler, before);
  await send(worker.handler, c.request);
  recording = [];
  const status = await send(worker.handler, c.request);
  const path = recording;
  recording = undefined;
  if (status !== 200) throw new Error(`${c.label}: HTTP ${status}`);
  const mcp = path.filter((e) => e.module.startsWith("worker/mcp/"));
  const distinct = new Set(mcp.map((e) => e.module)).size;
  const again = mcp.length - distinct;
  const lines = [`## ${c.label}`, ""];
  lines.push(
    `worker/mcp: ${distinct} modules, ${mcp.length} entries${again ? ` (${again} re-entries)` : ""}`,
    "",
    ...mcp.map((e, i) => {
      const before = mcp.findIndex((f) => f.module === e.module) < i ? "  (again)" : "";
      return `${String(i + 1).padStart(3)}. ${short(e.module).padEnd(26)} ${e.fn}, from ${short(e.from)}${before}`;
    }),
    "",
  );
  if (c.worker === "hub") {
    const all = path.map((e) => e.module.replace(/^worker\//, ""));
    lines.push("every module entered, hub and mcp:", "", `  ${all.join(" → ")}`, "");
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}
