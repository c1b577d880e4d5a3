import * as z from "zod";
import {
  defineServer,
  elicit,
  inputRounds,
  listenStreams,
  storedTasks,
  tool,
  ToolError,
} from "../../mcp/index.ts";
import { sleep } from "../../../shared/sleep.ts";

const BUILD_STAGES = ["fetch sources", "install dependencies", "compile", "test", "package"];

const runBuild = tool({
  name: "run_build",
  title: "Run a build",
  description:
    "Builds a project step by step (tens of seconds by default), reporting progress at every step. Closing the call cancels it.",
  input: z.object({
    project: z.string().min(1).describe("Project to build"),
    steps: z.number().int().min(1).max(120).default(20),
    step_ms: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .default(1_500)
      .describe("Time per step in milliseconds"),
  }),
  output: z.object({
    project: z.string(),
    steps: z.number().int(),
    artifact: z.string(),
    duration_ms: z.number().int(),
  }),
  annotations: { destructiveHint: false, openWorldHint: false },
  run: async ({ project, steps, step_ms }, ctx) => {
    const started = Date.now();
    for (let step = 1; step <= steps; step++) {
      try {
        await sleep(step_ms, ctx.signal);
      } catch {
        throw new ToolError(`The build of ${project} was cancelled at step ${step} of ${steps}.`);
      }
      const stage =
        BUILD_STAGES[
          Math.min(BUILD_STAGES.length - 1, Math.floor(((step - 1) / steps) * BUILD_STAGES.length))
        ];
      ctx.progress(step, steps, `${stage} (${step}/${steps})`);
    }
    return {
      project,
      steps,
      artifact: `${project}-${started.toString(36)}.tar.gz`,
      duration_ms: Date.now() - started,
    };
  },
});

const Finding = z.object({
  file: z.string(),
  severity: z.enum(["low", "medium", "high"]),
  issue: z.string(),
});

const ANONYMOUS_SCAN_MS = 60_000;

const scanRepo = tool({
  name: "scan_repo",
  title: "Scan a repository",
  description:
    "Scans a repository for risky code. Runs as a task for clients that support tasks (poll it, or listen for its updates); " +
    "otherwise it streams progress while it runs.",
  input: z.object({
    repo: z.string().min(1),
    files: z.number().int().min(1).max(500).default(40),
    file_ms: z.number().int().min(0).max(2_000).default(100),
  }),
  output: z.object({ repo: z.string(), scanned: z.number().int(), findings: z.array(Finding) }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  task: { mode: "optional", ttlMs: 60 * 60_000, pollIntervalMs: 1_000 },
  run: async ({ repo, files, file_ms }, ctx) => {
    // Anonymous callers may scan for a minute at most; a token allows the whole range.
    if (!ctx.caller && files * file_ms > ANONYMOUS_SCAN_MS)
      throw new ToolError(
        `Without a bearer token a scan may take at most ${ANONYMOUS_SCAN_MS / 1000} s (files × file_ms ≤ ${ANONYMOUS_SCAN_MS}); ` +
          "scan fewer files, or send a token.",
      );
    const findings: z.infer<typeof Finding>[] = [];
    for (let i = 1; i <= files; i++) {
      await sleep(file_ms, ctx.signal);
      if (i % 7 === 0)
        findings.push({
          file: `src/module${i}.ts`,
          severity: i % 21 === 0 ? "high" : "medium",
          issue: "unchecked input reaches a shell command",
        });
      ctx.progress(i, files, `scanned ${i}/${files} files`);
    }
    return { repo, scanned: files, findings };
  },
});

const deployRelease = tool({
  name: "deploy_release",
  title: "Deploy a release",
  description:
    "Deploys a release to an environment, after the user confirms (the client is asked through elicitation).",
  input: z.object({
    version: z.string().regex(/^v?\d+\.\d+\.\d+$/, "a version like 1.4.2"),
    environment: z.enum(["staging", "production"]),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
  run: async ({ version, environment }, ctx) => {
    const { confirmation } = await ctx.input({
      confirmation: elicit({
        message: `Deploy ${version} to ${environment}?`,
        schema: z.object({
          confirm: z.boolean().describe(`Deploy ${version} to ${environment}`),
          note: z.string().optional().describe("A note for the deploy log"),
        }),
      }),
    });
    if (confirmation.action !== "accept" || !confirmation.content.confirm)
      return `Deployment of ${version} to ${environment} was not confirmed; nothing changed.`;
    for (const [i, stage] of ["upload", "migrate", "switch traffic"].entries()) {
      await sleep(200, ctx.signal);
      ctx.progress(i + 1, 3, stage);
    }
    const note = confirmation.content.note ? ` Note: ${confirmation.content.note}` : "";
    return `Deployed ${version} to ${environment}.${note}`;
  },
});

/** The ops server: long work with progress, cancellation, tasks and confirmation. */
export const ops = defineServer({
  name: "edgemcp-ops",
  version: "0.1.0",
  title: "Ops",
  description: "Builds, repository scans (as tasks) and confirmed deployments.",
  instructions:
    "run_build takes tens of seconds and reports progress; scan_repo can run as a task; deploy_release asks for confirmation first.",
  tools: [runBuild, scanRepo, deployRelease],
  // deploy_release asks for confirmation; scan_repo may run as a task, whose updates listen
  // streams carry.
  input: inputRounds,
  tasks: storedTasks,
  listen: listenStreams,
});
