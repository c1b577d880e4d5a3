// npm run cluster: the Worker as a deployment runs it, on this machine. CLUSTER_WORKERS stateless
// Worker processes (default 3), the Durable Objects in one host process shared by all, a
// round-robin front on CLUSTER_PORT (default 8787). Ctrl+C (or SIGTERM) stops every part.
import { existsSync, readFileSync } from "node:fs";
import { positiveNumber } from "../bench/options.ts";
import { startCluster } from "./cluster.ts";

/** KEY="value" lines of .dev.vars (or the example, as `npm start` would copy it). */
function devVars(): Record<string, string> {
  const file = existsSync(".dev.vars") ? ".dev.vars" : ".dev.vars.example";
  const vars: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const match = /^\s*([A-Z_][A-Z0-9_]*)\s*=\s*"?(.*?)"?\s*$/.exec(line);
    if (match) vars[match[1] as string] = match[2] as string;
  }
  return vars;
}

const workers = Math.ceil(positiveNumber("CLUSTER_WORKERS", 3));
const port = Math.floor(positiveNumber("CLUSTER_PORT", 8787));
console.log(`Starting ${workers} Worker processes and the Durable Object host...`);
const cluster = await startCluster({
  workers,
  port,
  bindings: devVars(),
  log: (part, line) => console.log(`[${part}] ${line}`),
});
console.log(`Durable Object host: port ${cluster.host.port} (pid ${cluster.host.pid})`);
cluster.workers.forEach((part, index) =>
  console.log(`Worker process ${index + 1}: port ${part?.port} (pid ${part?.pid})`),
);
console.log(`State: ${cluster.root}`);
console.log(`Front (round robin): ${cluster.url}  (Ctrl+C stops everything)`);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the cluster...`);
  await cluster.stop();
  console.log("Stopped.");
  process.exit(0);
};
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
