import { join } from "node:path";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { StdioClientTransport as V1StdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expect } from "vitest";
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

/**
 * Every message `transport` hands its client from now on, in the order they were read (call it
 * after `connect`, which sets the client's handler).
 */
export function recordMessages(transport: { onmessage?: unknown }): WireMessage[] {
  const read: WireMessage[] = [];
  const deliver = transport.onmessage as (message: unknown, extra?: unknown) => void;
  transport.onmessage = (message: unknown, extra?: unknown) => {
    read.push(message as WireMessage);
    deliver(message, extra);
  };
  return read;
}

export type WireMessage = {
  method?: string;
  params?: { progress?: number; progressToken?: unknown };
  result?: unknown;
};

/**
 * Checks what the client read for a call with three progress steps: each step in order, then
 * the result; and that the progress callback saw the steps in order. The official clients hand
 * a notification to its handler a microtask after reading it but forget a call's progress
 * handler as soon as its result is read, so the last step, read in the same chunk as the result
 * (which happens under load), can miss the callback: the callback may see a prefix.
 */
export function expectThreeSteps(read: WireMessage[], steps: number[]): void {
  const progress = read.flatMap((m, i) => (m.method === "notifications/progress" ? [i] : []));
  expect(progress.map((i) => read[i]?.params?.progress)).toEqual([1, 2, 3]);
  const result = read.findIndex((m) => m.result !== undefined);
  expect(result).toBeGreaterThan(progress.at(-1) ?? Infinity);
  expect(steps.length).toBeGreaterThanOrEqual(2);
  expect(steps).toEqual([1, 2, 3].slice(0, steps.length));
}
