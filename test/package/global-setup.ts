import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The packed edgemcp tarball, as `npm pack` (and so `npm publish`) builds it. */
    edgemcpTarball: string;
    /** The packed create-edgemcp tarball. */
    createTarball: string;
  }
}

const run = promisify(execFile);

/** Packs both packages once (each `npm pack` runs its build), for every package test. */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), "edgemcp-packs-"));
  const pack = async (cwd: string) => {
    const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", dir], {
      cwd,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf("["))) as [{ filename: string }];
    return join(dir, filename);
  };
  project.provide("edgemcpTarball", await pack("."));
  project.provide("createTarball", await pack("create-edgemcp"));
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
