import type { ColdStart } from "./cold-start.ts";
import {
  coldSection,
  cpuSection,
  loadSection,
  memorySection,
  problemSection,
  sizeSection,
  targetSection,
} from "./sections.ts";
import type { Contender } from "./contenders.ts";
import type { LoadGenerator } from "./load/types.ts";
import type { Machine } from "./machine.ts";
import type { Options } from "./options.ts";
import type { Sample } from "./results.ts";
import type { Memory } from "./memory.ts";
import type { Problem } from "./scenario-run.ts";
import type { Scenario } from "./scenarios.ts";
import type { AssetsSize, BundleSize } from "./sizes.ts";
import type { Target } from "./targets.ts";

export type ReportInput = {
  startedAt: Date;
  elapsedSeconds: number;
  machine: Machine;
  options: Options;
  generator: LoadGenerator;
  schemaChecked: boolean;
  /** Every Worker built (the baseline's too, with BENCH_BASELINE). */
  workers: Contender[];
  scenarios: Scenario[];
  samples: Sample[];
  /** Peers whose answer failed its check before load (reported, not fatal). */
  problems: Problem[];
  memory: Memory | undefined;
  sizes: BundleSize[];
  assets: AssetsSize | undefined;
  coldStarts: ColdStart[];
  targets: Target[];
  commands: string[];
  /** The playground section, when it ran. */
  playground: string | undefined;
};

/** The CPU table under its heading, or nothing when the run could not read CPU times. */
function cpuText(cpu: string): string {
  if (cpu === "") return "";
  return `## CPU per answer

What workerd spent per answer in the measured runs (all its threads, from /proc), and how busy workerd and the load generator were, in cores (CPU seconds per second of the run). Where workerd is near one core the server's own CPU bounds its req/s and its req/s ÷ bare comes near bare's µs ÷ its µs; where the load generator is near a core, the load generator bounds the run.

${cpu}

`;
}

/** The whole report as Markdown. */
export function renderReport(r: ReportInput): string {
  const m = r.machine;
  const o = r.options;
  const b = o.baseline;
  const built = r.workers.flatMap((w) => (w.baseline ? [w.baseline.of] : [])).join(", ");
  const baselineLine = b
    ? `- Baseline (BENCH_BASELINE): ${b.root} at ${b.commit}${b.changed ? " (with uncommitted changes)" : ""}; its bench Workers ${built}, each built from that checkout's own test/bench/workers/<name> (so its worker/), are served beside this checkout's; "now ÷ baseline" is this checkout's figure ÷ the baseline's (req/s: within each round); the targets are this checkout's\n`
    : "";
  return `# edgemcp benchmark, ${r.startedAt.toISOString()}

- Machine: ${m.cores} cores (${m.cpu}), ${m.os}; load average ${m.load}
- Node ${m.node}; workerd ${m.workerd}; wrangler ${m.wrangler}; SDK @modelcontextprotocol/server ${m.sdk}
- Load: ${r.generator.name} ${r.generator.version}; commit ${m.commit}; took ${Math.round(r.elapsedSeconds)} s
${baselineLine}- Runs: rounds ${o.rounds} (twice as many for the hub; edgemcp between its anchors; server order reversed every other round), concurrency ${o.concurrency.join(" and ")}, ${o.warmupSeconds} s warm-up (${o.rewarmSeconds} s after a server's first round) then at least ${o.seconds} s (up to ${o.maxSeconds} s for slow servers) per run; figures are the server's median round; every ratio is taken within each round (servers of a round run back to back) and the median of the rounds is shown, with its spread (lowest–highest round)
- ${o.quick ? "**Quick mode (BENCH_QUICK=1): short runs, one round; not figures to steer by.**\n- " : ""}${o.pin ? "workerd pinned to core 1 and the load generator to core 0 (taskset)\n- " : ""}Every answer was checked: one per server and scenario in depth before load (${r.schemaChecked ? "official 2026-07-28 JSON schema, " : ""}JSON-RPC id, result contents), and every answer under load by status, size and expected substrings; rejected answers are not counted in req/s

## Targets

${targetSection(r.targets)}
${problemSection(r.problems, r.workers)}
## Requests per second and latency

Ratios are the figure divided by the bare Worker's or the SDK's in the same scenario and round (above 1: more requests/s, or a longer latency). Bare and Hono are not MCP servers: they answer every request with the same small JSON-RPC result, the limit of the stack; "bare Worker, edgemcp's bytes" answers exactly the bytes edgemcp answered (checked byte for byte before load), streamed one event per chunk for SSE. A peer that does not serve a scenario is listed with the reason.

${loadSection(r.scenarios, o.concurrency, r.samples, r.problems)}

${cpuText(cpuSection(r.scenarios, o.concurrency, r.samples))}${
    r.memory
      ? `## Memory

${memorySection(r.memory)}

`
      : ""
  }## Bundle sizes

\`wrangler deploy --dry-run --outdir\` output, gzip level 9. Hello-world rows compare with the hello-world SDK Worker.

${sizeSection(r.sizes, r.assets, r.workers)}

## Cold start

From spawning workerd to the first answered \`tools/call\`, ${o.coldRuns} runs per Worker.

${coldSection(r.coldStarts, r.workers)}

${r.playground ? `## Playground\n\n${r.playground}\n\n` : ""}## Commands

\`\`\`sh
${r.commands.join("\n")}
\`\`\`
`;
}
