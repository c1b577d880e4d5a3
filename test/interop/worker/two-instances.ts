import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { convertV4MiniflareOptions, Miniflare, type LegacyWorkerOptions } from "miniflare";
import { TEST_SECRETS } from "../../support/secrets.ts";
import { MIGRATIONS, migrationStatements } from "../../support/migrations.ts";

const WRANGLER = join(
  dirname(createRequire(import.meta.url).resolve("wrangler/package.json")),
  "bin",
  "wrangler.js",
);
const CLASSES = {
  MCP_BUS: "ListenBus",
  MCP_TASKS: "TaskObject",
  MCP_RENDEZVOUS: "Rendezvous",
} as const;

/**
 * Two instances of the real Worker bundle in one Miniflare: separate isolates ("a.test" and
 * "b.test") sharing the Durable Object namespaces (owned by "a") and the D1 databases, the way
 * two edge locations share them in production.
 */
const SECRET = `${crypto.randomUUID()}${crypto.randomUUID()}`;
/** alice's token on these hosts (the published test tokens, too, serve only localhost). */
export const ALICE_TOKEN = `two-instances-${crypto.randomUUID()}`;

export async function startTwoInstances(): Promise<Miniflare> {
  const out = await mkdtemp(join(tmpdir(), "edgemcp-bundle-"));
  execFileSync(process.execPath, [WRANGLER, "deploy", "--dry-run", "--outdir", out], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const common: LegacyWorkerOptions = {
    modules: true,
    modulesRoot: out,

    scriptPath: join(out, "index.js"),
    compatibilityDate: "2026-11-01",
    compatibilityFlags: ["enable_request_signal"],
    // Hosts other than localhost, as deployed: a secret and tokens of their own (the published
    // test ones serve only localhost).
    bindings: { ...TEST_SECRETS, EDGEMCP_SECRET: SECRET, API_TOKENS: `${ALICE_TOKEN}=alice` },
    d1Databases: { ANALYTICS_DB: "analytics", NOTES_DB: "notes" },
  };
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: [
        { ...common, name: "a", routes: ["a.test/*"], durableObjects: CLASSES },
        {
          ...common,
          name: "b",
          routes: ["b.test/*"],
          durableObjects: Object.fromEntries(
            Object.entries(CLASSES).map(([binding, className]) => [
              binding,
              { className, scriptName: "a" },
            ]),
          ),
        },
      ],
    }),
  );
  await mf.ready;

  for (const [binding, folder] of Object.entries(MIGRATIONS)) {
    const db = await mf.getD1Database(binding, "a");
    for (const file of (await readdir(folder)).sort()) {
      await db.batch(
        migrationStatements(await readFile(join(folder, file), "utf8")).map((sql) =>
          db.prepare(sql),
        ),
      );
    }
  }
  return mf;
}
