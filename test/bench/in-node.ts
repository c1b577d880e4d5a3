import { register } from "node:module";
import { SCENARIOS } from "./scenarios.ts";
import { benchRequest, initializeRequest, legacyRequest, type BenchRequest } from "./wire.ts";

// `cloudflare:workers` (imported by the hub) is the runtime's module; in Node a stand-in gives
// what the bench Workers use of it.
const STAND_IN = `export function waitUntil(promise) { promise.catch(() => {}); }
export class DurableObject {}
export const env = {};`;

/** Lets Worker bundles that import `cloudflare:workers` be imported in Node (profile, path). */
export function registerWorkersStandIn(): void {
  register(
    `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === "cloudflare:workers")
    return { url: "data:text/javascript,${encodeURIComponent(STAND_IN)}", shortCircuit: true };
  return next(specifier, context);
}`)}`,
  );
}

/** A Worker's default export, as the Node scripts call it. */
export type Handler = {
  fetch(request: Request, env: Record<string, string>, ctx: object): Promise<Response>;
};

const CTX = {
  waitUntil: (p: Promise<unknown>) => void p.catch(() => {}),
  passThroughOnException() {},
  props: {},
};

/** Sends one bench request to a Worker in this process and reads the whole answer; its status. */
export async function sendInNode(
  handler: Handler,
  env: Record<string, string>,
  r: BenchRequest,
): Promise<number> {
  const request = new Request("http://127.0.0.1/", {
    method: "POST",
    headers: r.headers,
    body: r.body,
  });
  const response = await handler.fetch(request, env, CTX);
  await response.arrayBuffer();
  return response.status;
}

/** A bench scenario as the Node scripts send it, to the edgemcp or the hub bench Worker. */
export type Case = {
  id: string;
  label: string;
  worker: "edgemcp" | "hub";
  tools: number;
  request: BenchRequest;
  /** Requests sent once before profiling (the 2025 handshake). */
  before?: BenchRequest[];
};

export function scenarioCase(id: string, worker: Case["worker"] = "edgemcp"): Case {
  const scenario = SCENARIOS.find((s) => s.id === id);
  if (!scenario) throw new Error(`There is no bench scenario "${id}".`);
  if (scenario.era === "2026")
    return {
      id,
      label: scenario.label,
      worker,
      tools: scenario.tools,
      request: benchRequest(scenario.request),
    };
  return {
    id,
    label: scenario.label,
    worker,
    tools: scenario.tools,
    request: legacyRequest(scenario.request),
    before: [initializeRequest()],
  };
}

/** Source files of a non-minified esbuild bundle: its `// path` comments, by line (0-based). */
export function sourceMap(code: string): { line: number; file: string }[] {
  const marks: { line: number; file: string }[] = [];
  code.split("\n").forEach((text, line) => {
    const match = /^\/\/ ((?:\.\.\/)*)([^\s]+\.(?:ts|js|mjs))$/.exec(text);
    if (match) marks.push({ line, file: match[2]! });
  });
  return marks;
}

/** The source file a line of the bundle belongs to. */
export function fileAt(marks: { line: number; file: string }[], line: number): string {
  let found = "(bundle prelude)";
  for (const mark of marks) {
    if (mark.line > line) break;
    found = mark.file;
  }
  return found;
}
