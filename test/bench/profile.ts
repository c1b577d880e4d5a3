// `npm run profile`: a CPU profile of edgemcp's request path, per scenario. The bench's edgemcp
// and hub Workers are built as for `npm run bench` (wrangler deploy --dry-run, not minified),
// loaded into this Node process, and driven one request at a time under V8's sampling profiler
// (node:inspector): no network, no load generator, only the Worker's own work and the
// Request/Response objects around it. Prints a per-stage cost table (the pipeline stages of
// worker/mcp/README.md) and the functions with the most self time, and writes each profile as a
// .cpuprofile for Chrome DevTools. Settings: PROFILE_SECONDS (default 3),
// PROFILE_SCENARIOS (default all), BENCH_OUT (default bench-results), PROFILE_RUNTIME (`node`,
// the default, or `workerd`: each bundle served by `workerd serve` and profiled through its
// inspector while this process sends it one request at a time over loopback).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { workerBindings } from "./bindings.ts";
import { build, type Bundle } from "./build.ts";
import { outputDir, positiveNumber } from "./options.ts";
import {
  fileAt,
  registerWorkersStandIn,
  scenarioCase,
  sendInNode,
  sourceMap,
  type Case,
  type Handler,
} from "./in-node.ts";
import { ROOT } from "./paths.ts";
import { table } from "./format.ts";
import { firstAnswer, send as sendOverHttp } from "./serve.ts";
import { freePort, startWorkerd, writeConfig, type Workerd } from "./workerd.ts";

registerWorkersStandIn();

const CASES: Case[] = [
  scenarioCase("echo"),
  scenarioCase("echo-2025"),
  scenarioCase("hub", "hub"),
  scenarioCase("progress"),
  scenarioCase("big"),
  scenarioCase("list-1000"),
  scenarioCase("read"),
];

/** Pipeline stages (worker/mcp/README.md) by source file, first match wins. */
const STAGES: [string, RegExp][] = [
  [
    "frame",
    /worker\/mcp\/request\/(frame|client-messages)\.ts$|shared\/jsonrpc\.ts$|worker\/http\/(body|accept)\.ts$/,
  ],
  ["envelope", /worker\/mcp\/era\/(index|era)\.ts$|worker\/mcp\/era\/\w+\/envelope\.ts$/],
  // Admission (the header gate and the body's) is the route stage's access decision.
  [
    "route",
    /worker\/mcp\/request\/route\.ts$|worker\/mcp\/methods\/method\.ts$|worker\/auth\/admit\.ts$/,
  ],
  // The era's result shaping and its other rules are part of the call.
  ["call", /worker\/mcp\/(call|methods|results|tasks|era)\//],
  ["respond", /worker\/mcp\/request\/reply\.ts$|worker\/http\/sse\.ts$|shared\/sse\.ts$/],
  ["error path", /worker\/mcp\/request\/errors\.ts$|shared\/error-text\.ts$/],
  ["observe (trace, log line)", /worker\/mcp\/observe\//],
  ["catalog, definitions", /worker\/mcp\/(catalog|define)\//],
  [
    "handler, pipeline, http",
    /worker\/mcp\/(handler|pipeline|ports)\.ts$|worker\/http\/|worker\/env-vars\.ts$|worker\/auth\//,
  ],
  ["state (sealing, handles)", /worker\/state\//],
  ["hub", /worker\/hub\/|shared\/hub\//],
  ["other edgemcp", /worker\/|shared\//],
  ["zod", /node_modules\/zod\//],
  ["hono", /node_modules\/hono\//],
  ["the bench tools", /test\/bench\/workers\//],
  // esbuild's helpers before the first module: __name (wrangler builds with keep_names).
  ["bundle helpers (__name)", /^\(bundle prelude\)$/],
];

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
};
type Profile = {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};

type Cost = { stage: string; fn: string; where: string };

/**
 * Each sample's time goes to the nearest frame of the bundle on its stack (a JSON.parse called by
 * framing counts as framing), or to "outside the Worker" (the harness building requests and
 * reading answers, Node's internals) and to the garbage collector.
 */
function attribute(profile: Profile, bundleUrl: string, marks: ReturnType<typeof sourceMap>) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const costOf = new Map<number, Cost>();
  const cost = (id: number): Cost => {
    const known = costOf.get(id);
    if (known) return known;
    const leaf = byId.get(id)!;
    let found: Cost;
    if (leaf.callFrame.functionName === "(garbage collector)")
      found = { stage: "garbage collector", fn: "(garbage collector)", where: "" };
    else if (leaf.callFrame.functionName === "(idle)")
      found = { stage: "idle (awaiting)", fn: "(idle)", where: "" };
    else {
      found = {
        stage: "outside the Worker",
        fn: leaf.callFrame.functionName || "(anonymous)",
        where: leaf.callFrame.url.replace(/^.*node_modules\//, ""),
      };
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at)!.callFrame;
        if (frame.url !== bundleUrl) continue;
        const file = fileAt(marks, frame.lineNumber);
        const stage = STAGES.find(([, pattern]) => pattern.test(file))?.[0] ?? "other";
        found = { stage, fn: frame.functionName || "(anonymous)", where: `${file}` };
        if (at !== id) found.fn = `${found.fn} → ${leaf.callFrame.functionName || "(native)"}`;
        break;
      }
    }
    costOf.set(id, found);
    return found;
  };
  const stages = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    // The profiler's own start and stop (node:inspector) are not the request path.
    if (byId.get(id)!.callFrame.url === "node:inspector") return;
    const dt = profile.timeDeltas[i] ?? 0;
    const c = cost(id);
    total += dt;
    stages.set(c.stage, (stages.get(c.stage) ?? 0) + dt);
    const key = `${c.fn}\t${c.where}\t${c.stage}`;
    functions.set(key, (functions.get(key) ?? 0) + dt);
  });
  return { stages, functions, total };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

const seconds = positiveNumber("PROFILE_SECONDS", 3);
const runtime = process.env.PROFILE_RUNTIME ?? "node";
if (runtime !== "node" && runtime !== "workerd")
  throw new Error(`PROFILE_RUNTIME takes node or workerd, not "${runtime}".`);
const wanted = (process.env.PROFILE_SCENARIOS ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
for (const id of wanted)
  if (!CASES.some((c) => c.id === id))
    throw new Error(
      `PROFILE_SCENARIOS: no scenario "${id}". The scenarios: ${CASES.map((c) => c.id).join(", ")}.`,
    );
const cases = CASES.filter((c) => wanted.length === 0 || wanted.includes(c.id));
const outDir = join(outputDir(), "profile");
mkdirSync(outDir, { recursive: true });

const workers = [...new Set(cases.map((c) => c.worker))];
log(`Building ${workers.join(" and ")} (not minified) into ${relative(ROOT, outDir)}/ ...`);
const bundles = new Map<string, Bundle>();
for (const worker of workers)
  bundles.set(worker, await build(worker, join(outDir, "build"), false));

/** One scenario's profile: the samples, how many requests they cover and how long that took. */
type Run = { profile: Profile; requests: number; elapsed: number; url: string };

let session: Session | undefined;

/** The bundle imported into this process and driven under node:inspector's profiler. */
async function profileInNode(c: Case, bundle: Bundle, instance: number): Promise<Run> {
  if (!session) {
    session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 100 });
  }
  // A fresh module per case: the bench Workers build their server once per isolate.
  const url = `${pathToFileURL(join(bundle.dir, "index.js")).href}?case=${instance}`;
  const handler = ((await import(url)) as { default: Handler }).default;
  const env = workerBindings(c.tools);
  const send = () => sendInNode(handler, env, c.request);
  for (const before of c.before ?? []) await sendInNode(handler, env, before);
  const status = await send();
  if (status !== 200) throw new Error(`${c.label}: HTTP ${status}`);
  const active = session;
  return measure(
    send,
    {
      start: () => active.post("Profiler.start").then(() => {}),
      stop: async () =>
        ((await active.post("Profiler.stop")) as unknown as { profile: Profile }).profile,
    },
    url,
  );
}

/** The bundle served by `workerd serve` and profiled through its inspector (Chrome DevTools Protocol). */
async function profileInWorkerd(c: Case, bundle: Bundle): Promise<Run> {
  const port = await freePort();
  const inspector = await freePort();
  const config = writeConfig(bundle, port, workerBindings(c.tools));
  const server: Workerd = startWorkerd(config, port, [`--inspector-addr=127.0.0.1:${inspector}`]);
  try {
    for (const before of c.before ?? []) await firstAnswer(server, before, performance.now());
    await firstAnswer(server, c.request, performance.now());
    const send = async () => {
      const response = await sendOverHttp(server.url, c.request);
      await response.arrayBuffer();
      return response.status;
    };
    const targets = (await (await fetch(`http://127.0.0.1:${inspector}/json/list`)).json()) as {
      webSocketDebuggerUrl: string;
    }[];
    const target = targets[0];
    if (!target) throw new Error(`${c.label}: workerd's inspector lists no Worker.`);
    const cdp = await devtools(target.webSocketDebuggerUrl);
    await cdp.call("Profiler.enable");
    await cdp.call("Profiler.setSamplingInterval", { interval: 100 });
    const run = await measure(send, {
      start: () => cdp.call("Profiler.start").then(() => {}),
      stop: async () => ((await cdp.call("Profiler.stop")) as { profile: Profile }).profile,
    });
    cdp.close();
    return run;
  } finally {
    await server.stop();
  }
}

/** A Chrome DevTools Protocol connection: calls by id, answers matched to them. */
async function devtools(address: string) {
  const socket = new WebSocket(address);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let next = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
    if (message.id !== undefined) waiting.delete(message.id);
  });
  return {
    call(method: string, params: object = {}): Promise<unknown> {
      const id = ++next;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    close: () => socket.close(),
  };
}

/**
 * A warm-up second, then requests one at a time for PROFILE_SECONDS under the profiler. The
 * bundle's URL in the profile is `url` in Node; workerd names its module itself (found by name).
 */
async function measure(
  send: () => Promise<number>,
  profiler: { start(): Promise<void>; stop(): Promise<Profile> },
  url?: string,
): Promise<Run> {
  // Warm-up: the optimizing compiler settles before the profile starts.
  const warmUntil = performance.now() + 1000;
  while (performance.now() < warmUntil) await send();
  await profiler.start();
  let requests = 0;
  const start = performance.now();
  const until = start + seconds * 1000;
  while (performance.now() < until) {
    await send();
    requests++;
  }
  const elapsed = performance.now() - start;
  const profile = await profiler.stop();
  const bundleUrl =
    url ?? profile.nodes.find((n) => n.callFrame.url.endsWith("index.js"))?.callFrame.url ?? "";
  return { profile, requests, elapsed, url: bundleUrl };
}

const report: string[] = [`# edgemcp request-path profile, ${new Date().toISOString()}`, ""];
report.push(
  runtime === "node"
    ? `Node ${process.version}, in-process (the bench Worker bundles under V8's sampling profiler, one request at a time, ${seconds} s per scenario). Times are µs per request. A sample counts for the nearest frame of the bundle on its stack, so built-ins (JSON.parse, crypto) count for the edgemcp code that called them.`
    : `workerd (each bench Worker bundle served by \`workerd serve\`, profiled through its inspector at 100 µs; this process sends one request at a time over loopback, ${seconds} s per scenario). Times are µs per request and include the profiler's overhead and the idle time between requests: read the shares. A sample counts for the nearest frame of the bundle on its stack; "outside the Worker" is workerd's own work (Request, Response, headers, streams, timers).`,
  "",
);
let instance = 0;
for (const c of cases) {
  const bundle = bundles.get(c.worker)!;
  const file = join(bundle.dir, "index.js");
  const run =
    runtime === "node"
      ? await profileInNode(c, bundle, instance++)
      : await profileInWorkerd(c, bundle);
  const { profile, requests, elapsed, url } = run;
  writeFileSync(join(outDir, `${c.id}.cpuprofile`), JSON.stringify(profile));
  const marks = sourceMap(readFileSync(file, "utf8"));
  const { stages, functions, total } = attribute(profile, url, marks);
  const per = (us: number) => (us / requests).toFixed(1);
  const pct = (us: number) => `${((100 * us) / total).toFixed(1)}%`;
  log(`${c.label}: ${requests} requests, ${((elapsed * 1000) / requests).toFixed(1)} µs each`);
  report.push(`## ${c.label} (${c.worker})`, "");
  report.push(
    `${requests} requests in ${(elapsed / 1000).toFixed(1)} s: ${((elapsed * 1000) / requests).toFixed(1)} µs per request (${Math.round(requests / (elapsed / 1000)).toLocaleString("en-US")} req/s in one thread).`,
    "",
  );
  const stageRows = [...stages]
    .sort((a, b) => b[1] - a[1])
    .map(([stage, us]) => [stage, per(us), pct(us)]);
  report.push(table(["stage", "µs/request", "share"], stageRows, 1), "");
  const top = [...functions].sort((a, b) => b[1] - a[1]).slice(0, 15);
  const fnRows = top.map(([key, us]) => {
    const [fn, where, stage] = key.split("\t");
    return [fn ?? "", where ?? "", stage ?? "", per(us), pct(us)];
  });
  report.push(
    "Top self time:",
    "",
    table(["function", "file", "stage", "µs/request", "share"], fnRows, 3),
    "",
  );
}
session?.disconnect();

const text = `${report.join("\n")}\n`;
const out = join(outDir, `profile-${new Date().toISOString().replace(/[:.]/g, "-")}.md`);
writeFileSync(out, text);
process.stdout.write(
  `${text}\nWritten to ${relative(ROOT, out)} (and one .cpuprofile per scenario beside it)\n`,
);
