import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { unstable_startWorker } from "wrangler";
import { TEST_LIMIT_VARS } from "./limits.ts";
import { TEST_SECRETS } from "./secrets.ts";

const WRANGLER = join(
  dirname(createRequire(import.meta.url).resolve("wrangler/package.json")),
  "bin",
  "wrangler.js",
);

/** A running Worker and how to stop it (its local state is removed too). */
export type StartedWorker = { url: URL; stop(): Promise<void> };

/**
 * Starts the real Worker (wrangler's local runtime, workerd) on a free loopback port, with its
 * D1 databases freshly migrated in a temporary state directory and the test secrets.
 */
export async function startWorker(
  vars: Record<string, string> = {},
  /** Serve over HTTPS with this key and certificate (PEM file paths) instead of plain HTTP. */
  https?: { keyPath: string; certPath: string },
): Promise<StartedWorker> {
  const state = await mkdtemp(join(tmpdir(), "edgemcp-worker-"));
  for (const database of ["ANALYTICS_DB", "NOTES_DB"]) {
    const args = [
      WRANGLER,
      "d1",
      "migrations",
      "apply",
      database,
      "--local",
      "--persist-to",
      state,
    ];
    execFileSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
  }
  const worker = await unstable_startWorker({
    config: "wrangler.toml",
    bindings: {
      ...Object.fromEntries(
        Object.entries(TEST_SECRETS).map(([name, value]) => [name, { type: "secret_text", value }]),
      ),
      ...Object.fromEntries(
        Object.entries({ ...TEST_LIMIT_VARS, ...vars }).map(([name, value]) => [
          name,
          { type: "plain_text", value },
        ]),
      ),
    },
    dev: {
      server: {
        hostname: "127.0.0.1",
        port: 0,
        ...(https
          ? { secure: true, httpsKeyPath: https.keyPath, httpsCertPath: https.certPath }
          : {}),
      },
      inspector: false,
      logLevel: "warn",
      persist: state,
    },
  });
  await worker.ready;
  const url = await worker.url;
  return {
    url,
    stop: async () => {
      await worker.dispose();
      await rm(state, { recursive: true, force: true });
    },
  };
}
