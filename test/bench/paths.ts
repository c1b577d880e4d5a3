import { fileURLToPath } from "node:url";

/** The repository root, and the folders the bench reads and writes. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const WORKERS_DIR = fileURLToPath(new URL("./workers/", import.meta.url));
export const LOAD_DIR = fileURLToPath(new URL("./load/", import.meta.url));
