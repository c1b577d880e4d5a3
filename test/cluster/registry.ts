// The cluster's side of Miniflare's dev registry: a folder of one JSON file per registered Worker
// (and one per instance offering to own the shared storage), each naming the Miniflare instance
// that wrote it. A process that exits removes its own files; a killed one cannot. Miniflare then
// refuses to let a new process register the same Worker name until the dead one's file is 90 s
// old (the restarted Durable Object host unreachable that long), and keeps electing the dead
// process's storage candidate for 10 s. The cluster stands in for the exiting process.
import { readFileSync, unlinkSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** Miniflare's name for an instance's offer to own the shared storage (D1, KV). */
const STORAGE_CANDIDATE = "__miniflare_storage_candidate__-";

/** The Miniflare instance id in the registry's entry for Worker `name` (once it registered). */
export async function readDefinitionId(registry: string, name: string): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    try {
      const definition = JSON.parse(await readFile(join(registry, name), "utf8")) as {
        instanceId?: unknown;
      };
      if (typeof definition.instanceId === "string") return definition.instanceId;
    } catch {
      // Not written yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Worker ${name} did not register in the dev registry`);
}

/** Removes what instance `instanceId` registered (Worker `name`, its storage candidate). */
export function forgetInstance(registry: string, name: string, instanceId: string): void {
  const entry = join(registry, name);
  try {
    const definition = JSON.parse(readFileSync(entry, "utf8")) as { instanceId?: unknown };
    // Only the dead instance's own entry: a newer process may have registered the name since.
    if (definition.instanceId === instanceId) unlinkSync(entry);
  } catch {
    // Gone already.
  }
  try {
    unlinkSync(join(registry, `${STORAGE_CANDIDATE}${instanceId}`));
  } catch {
    // Gone already.
  }
}
