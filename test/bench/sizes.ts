import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Bundle } from "./build.ts";

/** Bytes of a Worker's upload, as built and at gzip level 9 (what `gzip -9` gives). */
export type BundleSize = { worker: string; bytes: number; gzip: number; minGzip: number };

/** The playground's built assets: file count, bytes, and the sum of each file gzipped. */
export type AssetsSize = { files: number; bytes: number; gzip: number };

function gzipped(data: Buffer): number {
  return gzipSync(data, { level: 9 }).byteLength;
}

export function bundleSize(plain: Bundle, minified: Bundle): BundleSize {
  const code = readFileSync(join(plain.dir, "index.js"));
  return {
    worker: plain.worker,
    bytes: code.byteLength,
    gzip: gzipped(code),
    minGzip: gzipped(readFileSync(join(minified.dir, "index.js"))),
  };
}

/** Sizes of every file under `dir`, or undefined when the folder does not exist. */
export function assetsSize(dir: string): AssetsSize | undefined {
  if (!existsSync(dir)) return undefined;
  const total: AssetsSize = { files: 0, bytes: 0, gzip: 0 };
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const data = readFileSync(join(entry.parentPath, entry.name));
    total.files++;
    total.bytes += data.byteLength;
    total.gzip += gzipped(data);
  }
  return total;
}
