// One part of the local cluster in its own OS process: the Durable Object host or one stateless
// Worker process. cluster.ts starts it with its settings as JSON in argv; it prints `ready
// <port>` once it serves, and stops on SIGTERM, SIGINT or when its parent goes away (stdin ends).
import { readdir, readFile } from "node:fs/promises";
import { readDefinitionId } from "./registry.ts";
import { join } from "node:path";
import { Miniflare, convertV4MiniflareOptions, type LegacyWorkerOptions } from "miniflare";
import { migrationStatements } from "../support/migrations.ts";

export type PartSettings = {
  role: "host" | "worker";
  /** Names this part's own folder of state (what is not shared). */
  id: string;
  /** The dev registry through which the Worker processes find the host's Durable Objects. */
  registry: string;
  /** The cluster's state: D1 and KV live with the host and are reached through the registry. */
  state: string;
  port: number;
  worker: LegacyWorkerOptions;
  /** D1 migrations to apply once started (the host's first start): binding -> folder. */
  migrations?: Record<string, string>;
};

const settings = JSON.parse(process.argv[2] ?? "{}") as PartSettings;
const options = convertV4MiniflareOptions({
  host: "127.0.0.1",
  port: settings.port,
  unsafeDevRegistryPath: settings.registry,
  resourcePersistencePath: join(settings.state, "shared"),
  workers: [settings.worker],
});
// Shared storage: every process's D1 and KV calls go to one owner, the oldest process of the
// cluster (the host, started first), as one database serves every isolate in production.
const mf = new Miniflare({
  ...options,
  unsafeEnableSharedStorage: true,
  isolatedResourcePersistencePath: join(settings.state, settings.id),
});
const url = await mf.ready;

for (const [binding, folder] of Object.entries(settings.migrations ?? {})) {
  const db = await mf.getD1Database(binding);
  for (const file of (await readdir(folder)).sort()) {
    const sql = await readFile(join(folder, file), "utf8");
    await db.batch(migrationStatements(sql).map((statement) => db.prepare(statement)));
  }
}
// Our entry in the dev registry names this Miniflare instance: the cluster removes what that
// instance registered should this process be killed before it could remove it itself.
console.log(
  `ready ${url.port} ${await readDefinitionId(settings.registry, settings.worker.name ?? "")}`,
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await mf.dispose();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
// The cluster holds our stdin: when it is gone (even killed), so are we.
process.stdin.on("end", stop);
process.stdin.on("close", stop);
process.stdin.resume();
