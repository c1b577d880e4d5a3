import { build, type Bundle } from "./build.ts";
import type { Contender } from "./contenders.ts";
import { pool } from "./pool.ts";

/** Every bench Worker built plain and minified; `of` finds one. */
export type Bundles = { of(worker: string, minified?: boolean): Bundle };

/** Builds the Workers two at a time (wrangler is mostly single-threaded). */
export async function buildAll(workers: Contender[], outDir: string): Promise<Bundles> {
  const all = await pool(
    workers.flatMap((w) => [() => build(w.id, outDir, false), () => build(w.id, outDir, true)]),
    2,
  );
  return {
    of(worker, minified = false) {
      const found = all.find((b) => b.worker === worker && b.minified === minified);
      if (!found) throw new Error(`No bundle for ${worker}.`);
      return found;
    },
  };
}
