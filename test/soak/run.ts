// npm run soak: mixed MCP traffic at high concurrency against the real Worker (wrangler's
// local runtime, workerd) for a bounded time. Reports requests, errors (must be 0), latency
// percentiles and workerd's resident memory at start and end. Not part of npm test.
//
//   SOAK_SECONDS (default 60)  SOAK_CONCURRENCY (default 64)
//   SOAK_LIMITS=off: no per-caller rates or caps (to see what counting them costs)
//   SOAK_ONLY=tools/call,listen: only these operations
//   SOAK_HEAVY_QUERY=1: one more caller loops costly SQL (see heavy-query.ts), after a baseline
//     of SOAK_BASELINE_SECONDS (default 30) without it
import { AsyncLocalStorage } from "node:async_hooks";
import { decodeSse } from "../../shared/sse.ts";
import { MODERN_VERSION } from "../../shared/protocol/versions.ts";
import { workerdRss } from "./memory.ts";
import { operationTable, type OperationStats } from "./table.ts";
import { BASELINE_SECONDS, HEAVY, heavyCaller, heavyReport, OTHERS_P99_MS } from "./heavy-query.ts";
import { positiveNumber } from "../bench/options.ts";
import { percentile } from "../bench/stats.ts";
import { modernBody } from "../support/mcp-request.ts";
import { startWorker } from "../support/start-worker.ts";

const SECONDS = positiveNumber("SOAK_SECONDS", 60);
const CONCURRENCY = Math.ceil(positiveNumber("SOAK_CONCURRENCY", 64));
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
/**
 * Each soak client is an anonymous caller of its own (its own address, as a deployment sees
 * callers), the heavy caller one more; the limits are raised (test/support/limits.ts), or off.
 */
const LIMITS_OFF: Record<string, string> =
  process.env.SOAK_LIMITS === "off"
    ? {
        RATE_LIMIT_REQUESTS: "0",
        RATE_LIMIT_TOOL_CALLS: "0",
        MAX_LISTEN_STREAMS: "0",
        MAX_LIVE_TASKS: "0",
      }
    : {};

type Message = { id?: unknown; method?: string; result?: Record<string, unknown>; error?: unknown };

let base = "";
/** The address of the client whose requests run in this async context. */
const clientAddress = new AsyncLocalStorage<string>();
/** A soak client's address, in the benchmarking range 198.18.0.0/15: client 0 is 198.18.0.1. */
const addressOf = (client: number) => `198.18.${Math.floor(client / 250)}.${(client % 250) + 1}`;
const HEAVY_ADDRESS = "203.0.113.66";

/**
 * One 2026-07-28 request to an endpoint, with the test suite's `_meta` envelope (`meta` adds
 * keys to it) and `Mcp-Name` from the tool name or task id; `signal` aborts it.
 */
function post(
  path: string,
  method: string,
  params: Record<string, unknown>,
  options: {
    capabilities?: Record<string, unknown>;
    meta?: Record<string, unknown>;
    signal?: AbortSignal;
  } = {},
): Promise<Response> {
  const name = [params.name, params.taskId].find((value) => typeof value === "string");
  const address = clientAddress.getStore();
  return fetch(`${base}/mcp${path}`, {
    method: "POST",
    headers: {
      ...(address ? { "CF-Connecting-IP": address } : {}),
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": MODERN_VERSION,
      "Mcp-Method": method,
      ...(name ? { "Mcp-Name": name } : {}),
    },
    body: JSON.stringify(modernBody(method, params, options)),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** Every message of a reply (JSON or SSE); throws on a status or a JSON-RPC error. */
async function messagesOf(response: Response): Promise<Message[]> {
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const messages: Message[] = [];
  if (
    (response.headers.get("Content-Type") ?? "").startsWith("text/event-stream") &&
    response.body
  ) {
    for await (const event of decodeSse(response.body)) messages.push(JSON.parse(event.data));
  } else messages.push(await response.json());
  const last = messages.at(-1);
  if (!last || last.error || !last.result) throw new Error(`bad reply: ${JSON.stringify(last)}`);
  return messages;
}

const result = async (response: Response) => (await messagesOf(response)).at(-1)?.result ?? {};
const text = (r: Record<string, unknown>) =>
  (r.content as { text?: string }[] | undefined)?.[0]?.text ?? "";

/** `add_numbers` at an endpoint (the server's own name, or the hub's prefixed one): checks a + b. */
async function addNumbers(path: string, tool: string, a: number, b: number): Promise<void> {
  const r = await result(await post(path, "tools/call", { name: tool, arguments: { a, b } }));
  if (!text(r).includes(String(a + b))) throw new Error(`wrong sum from ${tool}: ${text(r)}`);
}

/** The operations of the mix, each one a request (or a short exchange) and its checks. */
const OPERATIONS: Record<string, () => Promise<void>> = {
  "tools/list": async () => {
    const r = await result(await post("/everything", "tools/list", {}));
    if (!Array.isArray(r.tools) || r.tools.length === 0) throw new Error("no tools");
  },
  "resources/list (paged)": async () => {
    const first = await result(await post("/everything", "resources/list", {}));
    const cursor = first.nextCursor;
    if (typeof cursor !== "string") throw new Error("no next page");
    await result(await post("/everything", "resources/list", { cursor }));
  },
  "tools/call": () => addNumbers("/everything", "add_numbers", 2, 3),
  "streaming call": async () => {
    const response = await post(
      "/everything",
      "tools/call",
      { name: "test_tool_with_progress", arguments: {} },
      { meta: { progressToken: "p" } },
    );
    const messages = await messagesOf(response);
    if (messages.filter((m) => m.method === "notifications/progress").length !== 3)
      throw new Error("missing progress");
  },
  "cancelled streaming call": async () => {
    const abort = new AbortController();
    const response = await post(
      "/everything",
      "tools/call",
      { name: "test_slow_counter", arguments: { steps: 50, delayMs: 20 } },
      { meta: { progressToken: 1 }, signal: abort.signal },
    );
    if (response.status !== 200 || !response.body) throw new Error(`HTTP ${response.status}`);
    const events = decodeSse(response.body);
    const first = await events.next();
    if (first.done) throw new Error("the stream ended before any progress");
    abort.abort();
    await events.return(undefined).catch(() => {});
  },
  listen: async () => {
    const abort = new AbortController();
    const response = await post(
      "/everything",
      "subscriptions/listen",
      { notifications: { toolsListChanged: true } },
      { signal: abort.signal },
    );
    if (response.status !== 200 || !response.body) throw new Error(`HTTP ${response.status}`);
    const events = decodeSse(response.body);
    const first = await events.next();
    if (first.done || !first.value.data.includes("acknowledged"))
      throw new Error("no acknowledgement");
    await new Promise((resolve) => setTimeout(resolve, 100));
    abort.abort();
    await events.return(undefined).catch(() => {});
  },
  task: async () => {
    const created = await result(
      await post(
        "/ops",
        "tools/call",
        { name: "scan_repo", arguments: { repo: "soak", files: 2, file_ms: 10 } },
        { capabilities: TASKS },
      ),
    );
    const taskId = created.taskId;
    if (typeof taskId !== "string") throw new Error("no task");
    for (let poll = 0; poll < 100; poll++) {
      const got = await result(
        await post("/ops", "tasks/get", { taskId }, { capabilities: TASKS }),
      );
      if (got.status === "completed") return;
      if (got.status !== "working") throw new Error(`task ${String(got.status)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the task did not complete in time");
  },
  "hub call": () => addNumbers("", "everything__add_numbers", 4, 5),
  "analytics query": async () => {
    const r = await executeQuery("SELECT count(*) AS n FROM users");
    if (r.isError || !r.text.includes('"n":200')) throw new Error(`wrong count: ${r.text}`);
  },
};

async function executeQuery(sql: string): Promise<{ isError: boolean; text: string }> {
  const r = await result(
    await post("/analytics", "tools/call", { name: "execute_query", arguments: { sql } }),
  );
  return { isError: r.isError === true, text: text(r) };
}

/** Not MCP: the playground's directory, for telling the runtime's own costs from the pipeline's. */
OPERATIONS["GET /api/servers"] = async () => {
  const response = await fetch(`${base}/api/servers`);
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
  await response.arrayBuffer();
};

/** How often each operation comes up in the mix (0: only with SOAK_ONLY). */
const WEIGHTS: Record<string, number> = {
  "tools/list": 4,
  "resources/list (paged)": 2,
  "tools/call": 6,
  "streaming call": 2,
  "cancelled streaming call": 2,
  listen: 1,
  task: 1,
  "hub call": 4,
  "analytics query": HEAVY ? 4 : 0,
  "GET /api/servers": 0,
};
/** SOAK_ONLY=name,name: only these operations (to find which one a figure comes from). */
const ONLY = process.env.SOAK_ONLY?.split(",").map((name) => name.trim());
for (const name of ONLY ?? [])
  if (!(name in WEIGHTS))
    throw new Error(
      `SOAK_ONLY: no operation "${name}". The operations: ${Object.keys(WEIGHTS).join(", ")}.`,
    );
const DECK = Object.entries(WEIGHTS)
  .filter(([name]) => (ONLY ? ONLY.includes(name) : true))
  .map(([name, weight]): [string, number] => [name, ONLY ? Math.max(weight, 1) : weight])
  .flatMap(([name, weight]) => Array<string>(weight).fill(name));

/** One stretch of the mix at full concurrency; with `heavy`, the heavy caller runs beside it. */
async function phase(seconds: number, heavy: boolean) {
  const latencies: number[] = [];
  const perOperation = new Map<string, OperationStats>();
  const errors: string[] = [];
  const deadline = Date.now() + seconds * 1000;
  let draw = 0;
  const client = async () => {
    while (Date.now() < deadline) {
      const name = DECK[draw++ % DECK.length] as string;
      const stats: OperationStats = perOperation.get(name) ?? { count: 0, errors: 0, ms: [] };
      perOperation.set(name, stats);
      const started = performance.now();
      try {
        await OPERATIONS[name]?.();
      } catch (error) {
        stats.errors++;
        if (errors.length < 20) errors.push(`${name}: ${String(error)}`);
      }
      const ms = performance.now() - started;
      stats.count++;
      stats.ms.push(ms);
      latencies.push(ms);
    }
  };
  const started = Date.now();
  const heavyRun = heavy
    ? clientAddress.run(HEAVY_ADDRESS, () => heavyCaller(executeQuery, deadline))
    : undefined;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, i) => clientAddress.run(addressOf(i), client)),
  );
  const heavyStats = await heavyRun;
  latencies.sort((a, b) => a - b);
  return { latencies, perOperation, errors, heavyStats, elapsed: (Date.now() - started) / 1000 };
}

async function main() {
  console.log(`Starting the Worker (wrangler's local runtime)...`);
  const worker = await startWorker(LIMITS_OFF);
  base = worker.url.origin;
  try {
    // Warm up every operation once, so start-up is not in the figures.
    for (const operation of Object.values(OPERATIONS)) await operation();
    // The same mix without the heavy caller first: what the machine gives the others anyway.
    let baseline: number[] | undefined;
    if (HEAVY) {
      console.log(`Baseline: the mix for ${BASELINE_SECONDS} s without the heavy caller...`);
      baseline = (await phase(BASELINE_SECONDS, false)).latencies;
      console.log(
        `  p50 ${percentile(baseline, 50).toFixed(1)} ms, p99 ${percentile(baseline, 99).toFixed(1)} ms (${baseline.length} operations)`,
      );
    }
    const rssStart = workerdRss();
    const limits = process.env.SOAK_LIMITS === "off" ? "off" : "counted";
    console.log(
      `Soaking: ${CONCURRENCY} concurrent clients for ${SECONDS} s${HEAVY ? " and the heavy caller" : ""}, limits ${limits} (workerd ${rssStart.toFixed(1)} MiB).`,
    );
    // workerd's memory every 10 s, to tell growth that levels off from a leak.
    const samples: string[] = [];
    const sampler = setInterval(() => samples.push(workerdRss().toFixed(0)), 10_000);
    const { latencies, perOperation, errors, heavyStats, elapsed } = await phase(SECONDS, HEAVY);
    clearInterval(sampler);
    const rssEnd = workerdRss();
    const total = latencies.length;
    const failed = [...perOperation.values()].reduce((sum, s) => sum + s.errors, 0);
    console.log(
      `\nOperations: ${total} in ${elapsed.toFixed(1)} s (${(total / elapsed).toFixed(0)}/s), errors: ${failed}`,
    );
    console.log(
      `Latency per operation: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    );
    console.log(
      `workerd resident memory: ${rssStart.toFixed(1)} MiB at start, ${rssEnd.toFixed(1)} MiB at end`,
    );
    console.log(`  every 10 s (MiB): ${samples.join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    console.log(`  after 15 s without traffic: ${workerdRss().toFixed(1)} MiB`);
    console.log(operationTable(perOperation));
    for (const error of errors) console.log(`  error: ${error}`);
    const othersP99 = percentile(latencies, 99);
    if (heavyStats) console.log(`\n${heavyReport(heavyStats, othersP99, baseline)}`);
    const slow = heavyStats !== undefined && othersP99 >= OTHERS_P99_MS;
    process.exitCode = failed === 0 && !slow ? 0 : 1;
  } finally {
    await worker.stop();
  }
}

// --cluster: the same kind of mix through the local cluster, with processes restarted.
if (process.argv.includes("--cluster")) await import("./cluster-run.ts");
else await main();
