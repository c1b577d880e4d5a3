import { build, type Bundle } from "./build.ts";
import { folderOf, type Contender } from "./contenders.ts";
import { pool } from "./pool.ts";

/** Every bench Worker built plain and minified; `of` finds one by its contender's id. */
export type Bundles = { of(worker: string, minified?: boolean): Bundle };

/**
 * Builds the Workers two at a time (wrangler is mostly single-threaded), a baseline's in its own
 * checkout, each into `outDir/<contender id>`.
 */
export async function buildAll(workers: Contender[], outDir: string): Promise<Bundles> {
  const one = (w: Contender, minified: boolean) => () =>
    build(folderOf(w), outDir, minified, w.baseline?.checkout.root, w.id);
  const all = await pool(
    workers.flatMap((w) => [one(w, false), one(w, true)]),
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
