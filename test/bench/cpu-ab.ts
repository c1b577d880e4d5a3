// `BENCH_BASELINE=<checkout> npm run bench:cpu`: this checkout's edgemcp (or hub) bench Worker
// against the baseline's, by the CPU time workerd spends per request. Ratios of requests per
// second move ±10% from run to run on this machine, too much to see a change of a few percent;
// CPU time per request, read from the kernel's per-thread counters in nanoseconds, over short
// rounds that alternate the two sides, and with several workerd processes per side (one
// process of identical code can differ from another by 5%), shows one. One request at a time
// over one keep-alive connection per process: no load generator between the two.
// Settings: BENCH_CPU_SCENARIOS (default echo,list-1000,hub), BENCH_CPU_ROUNDS (40),
// BENCH_CPU_REQUESTS (300 per round), BENCH_CPU_PROCESSES (2 per side).
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { workerBindings } from "./bindings.ts";
import { build, type Bundle } from "./build.ts";
import { processCpuNs } from "./cpu-time.ts";
import { HUB } from "./contenders.ts";
import { table } from "./format.ts";
import { probeFor, requestFor } from "./handshake.ts";
import { baselineCheckout, outputDir, positiveNumber } from "./options.ts";
import { SCENARIOS, type Scenario } from "./scenarios.ts";
import { median, percentile } from "./stats.ts";
import type { BenchRequest } from "./wire.ts";
import { serve } from "./serve.ts";
import type { Workerd } from "./workerd.ts";

/**
 * Whether `bytes` hold one whole HTTP/1.1 response (by Content-Length, or the last chunk of a
 * chunked body); its status once the head is there. Throws on a head without either.
 */
export function responseEnd(bytes: Buffer): { status: number; complete: boolean } | undefined {
  const end = bytes.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const head = bytes.subarray(0, end).toString("latin1");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
  if (length !== undefined) return { status, complete: bytes.length >= end + 4 + Number(length) };
  if (/\r\ntransfer-encoding: *chunked/i.test(head))
    return { status, complete: bytes.subarray(-5).toString("latin1") === "0\r\n\r\n" };
  throw new Error(`A response with neither Content-Length nor chunked framing:\n${head}`);
}

/** One workerd serving a bundle, and one keep-alive connection to it. */
type Side = { server: Workerd; socket: Socket; bytes: Buffer };

async function open(bundle: Bundle, scenario: Scenario): Promise<Side> {
  const probe = probeFor(scenario.era, scenario.request);
  const server = await serve(bundle, workerBindings(scenario.tools), probe);
  const port = Number(new URL(server.url).port);
  const request = await requestFor(scenario.era, scenario.request, server.url, true);
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect(port, "127.0.0.1", () => resolve(s));
    s.once("error", reject);
  });
  socket.setNoDelay(true);
  return { server, socket, bytes: rawPost(port, request) };
}

function rawPost(port: number, request: BenchRequest): Buffer {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return Buffer.from(
    `POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: ${Buffer.byteLength(request.body)}\r\n${headers}\r\n${request.body}`,
  );
}

/**
 * Sends the side's request once and reads the whole response; refuses anything but 200, and a
 * connection that closes before the response is whole (with what workerd printed).
 */
function exchange(side: Side): Promise<void> {
  return new Promise((resolve, reject) => {
    let bytes = Buffer.alloc(0);
    const done = (error?: Error) => {
      side.socket.off("data", onData);
      side.socket.off("close", onClose);
      if (error) reject(error);
      else resolve();
    };
    const onClose = () =>
      done(
        new Error(
          `The connection closed after ${bytes.length} bytes; workerd:\n${side.server.log()}`,
        ),
      );
    const onData = (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      try {
        const end = responseEnd(bytes);
        if (!end) return;
        if (end.status !== 200) throw new Error(`HTTP ${end.status}`);
        if (end.complete) done();
      } catch (error) {
        done(error instanceof Error ? error : new Error(String(error)));
      }
    };
    side.socket.on("data", onData);
    side.socket.on("close", onClose);
    side.socket.write(side.bytes);
  });
}

/** CPU µs per request of `requests` exchanges. */
async function cpuPerRequest(side: Side, requests: number): Promise<number> {
  const pid = side.server.process.pid;
  if (pid === undefined) throw new Error("workerd has no pid");
  const before = processCpuNs(pid);
  for (let i = 0; i < requests; i++) await exchange(side);
  return (processCpuNs(pid) - before) / 1000 / requests;
}

type Row = { scenario: string; now: number; baseline: number; ratios: number[] };

async function compare(
  scenario: Scenario,
  now: Bundle,
  baseline: Bundle,
  settings: { rounds: number; requests: number; processes: number },
): Promise<Row> {
  const sides: { bundle: Bundle; side: Side }[] = [];
  try {
    for (let p = 0; p < settings.processes; p++)
      for (const bundle of [now, baseline])
        sides.push({ bundle, side: await open(bundle, scenario) });
    for (const { side } of sides) for (let i = 0; i < 500; i++) await exchange(side);
    const samples = sides.map(() => [] as number[]);
    for (let round = 0; round < settings.rounds; round++) {
      const order = sides.map((_, i) => i);
      if (round % 2) order.reverse();
      for (const i of order)
        samples[i]!.push(await cpuPerRequest(sides[i]!.side, settings.requests));
    }
    // Per round: the mean of this checkout's processes ÷ the mean of the baseline's.
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const of = (bundle: Bundle, round: number) =>
      mean(sides.flatMap((s, i) => (s.bundle === bundle ? [samples[i]![round]!] : [])));
    const rounds = Array.from({ length: settings.rounds }, (_, r) => r);
    return {
      scenario: scenario.label,
      now: median(rounds.map((r) => of(now, r))),
      baseline: median(rounds.map((r) => of(baseline, r))),
      ratios: rounds.map((r) => of(now, r) / of(baseline, r)),
    };
  } finally {
    for (const { side } of sides) side.socket.destroy();
    await Promise.all(sides.map(({ side }) => side.server.stop()));
  }
}

async function main(): Promise<void> {
  const checkout = baselineCheckout(process.env.BENCH_BASELINE);
  if (!checkout) {
    console.error("Set BENCH_BASELINE to another checkout of this repository (git worktree add).");
    process.exit(2);
  }
  const ids = (process.env.BENCH_CPU_SCENARIOS || "echo,list-1000,hub").split(",");
  const scenarios = ids.map((id) => {
    const scenario = SCENARIOS.find((s) => s.id === id);
    if (!scenario)
      throw new Error(`No scenario "${id}": one of ${SCENARIOS.map((s) => s.id).join(", ")}.`);
    return scenario;
  });
  const settings = {
    rounds: Math.round(positiveNumber("BENCH_CPU_ROUNDS", 40)),
    requests: Math.round(positiveNumber("BENCH_CPU_REQUESTS", 300)),
    processes: Math.round(positiveNumber("BENCH_CPU_PROCESSES", 2)),
  };
  const out = join(outputDir(), "cpu-ab", "build");
  const rows: Row[] = [];
  const built = new Map<string, [Bundle, Bundle]>();
  for (const scenario of scenarios) {
    const worker = scenario.contenders.includes(HUB) ? "hub" : "edgemcp";
    let pair = built.get(worker);
    if (!pair) {
      console.log(`Building ${worker} here and at ${checkout.commit} ...`);
      pair = [
        await build(worker, out, false),
        await build(worker, out, false, checkout.root, `${worker}-baseline`),
      ];
      built.set(worker, pair);
    }
    console.log(`${scenario.label} ...`);
    rows.push(await compare(scenario, pair[0], pair[1], settings));
  }
  const quartiles = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${percentile(sorted, 25).toFixed(2)}–${percentile(sorted, 75).toFixed(2)}`;
  };
  console.log(
    `\nworkerd CPU µs per request, this checkout against ${checkout.commit}${checkout.changed ? " (with uncommitted changes)" : ""}; ${settings.processes} processes per side, ${settings.rounds} rounds of ${settings.requests} requests, c=1\n`,
  );
  console.log(
    table(
      ["scenario", "now µs", "baseline µs", "now ÷ baseline", "single rounds (quartiles)"],
      rows.map((r) => [
        r.scenario,
        r.now.toFixed(1),
        r.baseline.toFixed(1),
        (r.now / r.baseline).toFixed(3),
        quartiles(r.ratios),
      ]),
    ),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
