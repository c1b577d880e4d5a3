// What each part of the cluster runs: the Worker bundle built from wrangler.toml, its bindings
// (wrangler.toml's, then secrets, then overrides), and where the Durable Objects live.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { LegacyWorkerOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { writeHostEntry, writeWorkerEntry } from "./entries.ts";

const WRANGLER = join(
  dirname(createRequire(import.meta.url).resolve("wrangler/package.json")),
  "bin",
  "wrangler.js",
);

/** The Durable Object host's Worker name: what each Worker process's bindings name as script_name. */
export const HOST_NAME = "edgemcp-coordination";

/** Builds the Worker bundle into `out` as a deploy would (wrangler deploy --dry-run). */
export function buildBundle(out: string): void {
  execFileSync(process.execPath, [WRANGLER, "deploy", "--dry-run", "--outdir", out], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/**
 * Miniflare options for one part: the host binds the Durable Object classes locally and
 * is found through the dev registry; a Worker process binds the same namespaces by
 * script_name, so every call on them crosses to the host's process.
 */
export function workerOptions(
  role: "host" | "worker",
  name: string,
  bundle: string,
  bindings: Record<string, string>,
): LegacyWorkerOptions {
  const fromConfig = unstable_getMiniflareWorkerOptions("wrangler.toml").workerOptions;
  const classNames: string[] = [];
  const objects = Object.entries(fromConfig.durableObjects ?? {}).map(([binding, value]) => {
    const className = typeof value === "string" ? value : value.className;
    classNames.push(className);
    return [binding, role === "host" ? value : { className, scriptName: HOST_NAME }] as const;
  });
  return {
    ...(fromConfig as LegacyWorkerOptions),
    name,
    modulesRoot: bundle,
    // The bundle behind a test-only switch (a slow object, a clock offset): see entries.ts.
    modules: [
      {
        type: "ESModule",
        path: role === "host" ? writeHostEntry(bundle, classNames) : writeWorkerEntry(bundle),
      },
      { type: "ESModule", path: join(bundle, "index.js") },
    ],
    modulesRules: undefined,
    bindings: { ...(fromConfig.bindings as Record<string, string>), ...bindings },
    durableObjects: Object.fromEntries(objects),
    // Every part registers (the Worker processes under names nobody binds), so that each
    // names its Miniflare instance there and the cluster can clean up after a killed one.
    unsafeRegisterWorker: true,
  } as unknown as LegacyWorkerOptions;
}
