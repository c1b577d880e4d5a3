import { spawn, type ChildProcess } from "node:child_process";
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

/** A running `edgemcp` process, what it wrote to stderr so far, and its end. */
export type RunningCli = {
  child: ChildProcess;
  stderr(): string;
  /** Resolves once stderr matches `pattern` (rejects if the process ends first). */
  stderrMatches(pattern: RegExp): Promise<void>;
  /** How it ended: its exit code, or the signal that ended it. */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>;
};

/** Starts `edgemcp <args>` and returns at once, for a test that signals it midway. */
export function startCli(args: string[]): RunningCli {
  const child = spawn(process.execPath, [...CLI, ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiting = new Set<() => void>();
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const check of waiting) check();
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>(
    (resolve) => child.once("close", (code, signal) => resolve({ code, signal, stdout })),
  );
  return {
    child,
    stderr: () => stderr,
    stderrMatches: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(stderr)) return;
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
        void ended.then(() => {
          if (waiting.delete(check))
            reject(new Error(`edgemcp ended before stderr matched ${pattern}:\n${stderr}`));
        });
      }),
    ended,
  };
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
 * handler as soon as its result is read, so the steps read in the same chunk as the result
 * (under load the last two were, with 20 ms between steps) can miss the callback: the callback
 * sees a prefix, at least the first step.
 */
export function expectThreeSteps(read: WireMessage[], steps: number[]): void {
  const progress = read.flatMap((m, i) => (m.method === "notifications/progress" ? [i] : []));
  expect(progress.map((i) => read[i]?.params?.progress)).toEqual([1, 2, 3]);
  const result = read.findIndex((m) => m.result !== undefined);
  expect(result).toBeGreaterThan(progress.at(-1) ?? Infinity);
  expect(steps.length).toBeGreaterThanOrEqual(1);
  expect(steps).toEqual([1, 2, 3].slice(0, steps.length));
}
