import { join } from "node:path";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { StdioClientTransport as V1StdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { sh, type Ran } from "../support/sh.ts";

const ROOT = join(import.meta.dirname, "../..");

/** Node running the command from source (its classes need more than type stripping). */
export const CLI = [
  "--experimental-transform-types",
  "--no-warnings",
  join(ROOT, "cli", "main.ts"),
] as const;

/** Runs `edgemcp <args>` to its end. */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
  input?: string,
): Promise<Ran> {
  return sh(process.execPath, [...CLI, ...args], ROOT, env, input);
}

/** A v2 SDK stdio transport that spawns `edgemcp stdio <url>`, as a desktop host would. */
export function bridgeTransport(url: string | URL, env: Record<string, string> = {}) {
  return new StdioClientTransport({
    command: process.execPath,
    args: [...CLI, "stdio", String(url)],
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });
}

/** The same with the v1 SDK's transport (the one 2025 hosts ship). */
export function v1BridgeTransport(url: string | URL) {
  return new V1StdioTransport({
    command: process.execPath,
    args: [...CLI, "stdio", String(url)],
    env: { PATH: process.env.PATH ?? "" },
    stderr: "pipe",
  });
}
