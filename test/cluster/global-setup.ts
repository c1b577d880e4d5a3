// The deploy bundle, built once for every test file's cluster (a build takes seconds).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBundle } from "./options.ts";

export default async function setup(): Promise<() => Promise<void>> {
  const root = await mkdtemp(join(tmpdir(), "edgemcp-cluster-bundle-"));
  buildBundle(root);
  process.env.CLUSTER_TEST_BUNDLE = root;
  return () => rm(root, { recursive: true, force: true });
}
