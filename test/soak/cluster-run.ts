// npm run soak -- --cluster: the soak's mixed workload through the local cluster's front
// (test/cluster), with one Worker process killed and started again every SOAK_RESTART_SECONDS.
// Reports operations, errors by kind (those inside a restart window apart), tasks created vs
// results read, listen notifications published vs delivered per stream, p50/p99 and each
// process's memory over time. Not part of npm test.
//
//   SOAK_SECONDS (default 600)  SOAK_CONCURRENCY (default 64)  SOAK_RESTART_SECONDS (default 120)
//   CLUSTER_WORKERS (default 3)  SOAK_LISTENERS (listen streams held throughout, default 4)
import { positiveNumber } from "../bench/options.ts";
import { percentile } from "../bench/stats.ts";
import { startCluster, type Cluster } from "../cluster/cluster.ts";
import { clusterBindings } from "../cluster/fixtures.ts";
import { groupRss } from "../cluster/processes.ts";
import {
  DECK,
  edits,
  inWindow,
  listenedNotes,
  listener,
  OPERATIONS,
  post,
  result,
  run,
  tasks,
  text,
  type Session,
} from "./cluster-mix.ts";
import { operationTable, type OperationStats } from "./table.ts";
import { upstreamErrorReport } from "./upstream-errors.ts";

const SECONDS = positiveNumber("SOAK_SECONDS", 600);
const CONCURRENCY = Math.ceil(positiveNumber("SOAK_CONCURRENCY", 64));
const RESTART_SECONDS = positiveNumber("SOAK_RESTART_SECONDS", 120);
const WORKERS = Math.ceil(positiveNumber("CLUSTER_WORKERS", 3));
const LISTENERS = Math.ceil(positiveNumber("SOAK_LISTENERS", 4));

/** Kills Worker process `index % WORKERS` at once and starts it again, every RESTART_SECONDS. */
async function restarter(cluster: Cluster, deadline: number, log: string[]): Promise<void> {
  for (let round = 0; ; round++) {
    await new Promise((resolve) => setTimeout(resolve, RESTART_SECONDS * 1000));
    if (Date.now() + 5_000 > deadline) return;
    const index = round % WORKERS;
    const window = { from: Date.now(), to: Number.POSITIVE_INFINITY };
    run.windows.push(window);
    cluster.kill(index);
    await cluster.restart(index);
    window.to = Date.now();
    log.push(`worker ${index + 1} killed and serving again in ${window.to - window.from} ms`);
  }
}

async function main() {
  console.log(`Starting the cluster (${WORKERS} Worker processes, the Durable Object host)...`);
  const cluster = await startCluster({ workers: WORKERS, bindings: clusterBindings() });
  run.base = cluster.url;
  try {
    for (let i = 0; i < LISTENERS; i++) {
      const created = text(
        await result(
          await post("/notes", "tools/call", {
            name: "create_note",
            arguments: { title: `Soak ${i + 1}`, body: "Listened to by the soak." },
          }),
        ),
      );
      listenedNotes.push(Number(/^Created note (\d+)\.$/.exec(created)?.[1]));
    }
    for (const operation of Object.values(OPERATIONS)) await operation();
    tasks.created = tasks.resultsRead = 0;
    edits.clear();
    const parts = () => [
      ["host", cluster.host.pid] as const,
      ...cluster.workers.map((part, i) => [`worker ${i + 1}`, part?.pid ?? 0] as const),
    ];
    const memory = new Map<string, string[]>();
    const sample = () => {
      for (const [name, pid] of parts())
        memory.set(name, [...(memory.get(name) ?? []), pid ? groupRss(pid).toFixed(0) : "-"]);
    };
    sample();
    console.log(
      `Soaking: ${CONCURRENCY} clients and ${LISTENERS} listen streams through the front for ${SECONDS} s, a Worker process killed and restarted every ${RESTART_SECONDS} s.`,
    );
    const sampler = setInterval(sample, 10_000);
    const soakStart = Date.now();
    const deadline = soakStart + SECONDS * 1000;
    const restarts: string[] = [];
    const listened = Array.from({ length: LISTENERS }, () => [] as Session[]);
    const listening = listened.map((sessions, i) =>
      listener(listenedNotes[i] as number, deadline, sessions),
    );
    const restarting = restarter(cluster, deadline, restarts);
    const latencies: number[] = [];
    const perOperation = new Map<string, OperationStats>();
    const errors = { fault: new Map<string, number>(), other: new Map<string, number>() };
    let draw = 0;
    const client = async () => {
      while (Date.now() < deadline) {
        const name = DECK[draw++ % DECK.length] as string;
        const stats = perOperation.get(name) ?? { count: 0, errors: 0, ms: [] };
        perOperation.set(name, stats);
        const started = performance.now();
        const startedAt = Date.now();
        try {
          await OPERATIONS[name]?.();
        } catch (error) {
          const kinds = inWindow(startedAt) || inWindow(Date.now()) ? errors.fault : errors.other;
          const kind = `${name}: ${String(error).trim().slice(0, 100)}`;
          kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
          stats.errors++;
        }
        const ms = performance.now() - started;
        stats.count++;
        stats.ms.push(ms);
        latencies.push(ms);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, client));
    await Promise.all(listening);
    await restarting;
    clearInterval(sampler);
    sample();
    latencies.sort((a, b) => a - b);
    const count = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
    console.log(`\nOperations: ${latencies.length} in ${SECONDS} s`);
    console.log(
      `Latency per operation: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    );
    for (const line of restarts) console.log(`Restart: ${line}`);
    console.log(`Errors in restart windows (the fault's effect): ${count(errors.fault)}`);
    for (const [kind, n] of errors.fault) console.log(`  ${n} × ${kind}`);
    console.log(`Errors outside them: ${count(errors.other)}`);
    for (const [kind, n] of errors.other) console.log(`  ${n} × ${kind}`);
    console.log(upstreamErrorReport(cluster.front.upstreamErrors, soakStart, run.windows));
    console.log(
      `Tasks: ${tasks.created} created, ${tasks.resultsRead} results read, ${tasks.abandoned} given up`,
    );
    let lostOutside = 0;
    console.log(
      "Listen streams (edits published while a stream was open vs notifications delivered):",
    );
    listened.forEach((sessions, i) => {
      const id = listenedNotes[i] as number;
      const times = edits.get(id) ?? [];
      let published = 0;
      let delivered = 0;
      let lost = 0;
      for (const session of sessions) {
        // An edit whose reply came a moment before the stream ended may be announced after.
        const during = times.filter((t) => t > session.from && t < session.to - 500).length;
        published += during;
        delivered += session.delivered;
        const missing = Math.max(0, during - session.delivered);
        if (!inWindow(session.to)) lost += missing;
      }
      lostOutside += lost;
      console.log(
        `  notes://note-${id}: ${sessions.length} stream(s), ${published} published, ${delivered} delivered, ${lost} lost outside restart windows`,
      );
    });
    console.log("Resident memory per process every 10 s (MiB; a restarted process starts again):");
    for (const [name, samples] of memory) console.log(`  ${name}: ${samples.join(", ")}`);
    console.log(operationTable(perOperation));
    process.exitCode =
      count(errors.other) === 0 && lostOutside === 0 && tasks.abandoned === 0 ? 0 : 1;
  } finally {
    await cluster.stop();
  }
}

await main();
