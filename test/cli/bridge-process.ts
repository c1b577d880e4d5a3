import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { CLI } from "./cli.ts";

/** A message the bridge wrote, as the tests read it. */
export type Line = Record<string, unknown>;

/**
 * `edgemcp stdio` driven line by line, the way a host drives it: write JSON-RPC messages to
 * its stdin, read what it writes to stdout.
 */
export class BridgeProcess {
  readonly lines: Line[] = [];
  readonly stderr: string[] = [];
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiters = new Set<() => void>();
  readonly exited: Promise<number | null>;

  constructor(args: string[], env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [...CLI, "stdio", ...args], {
      env: { ...process.env, ...env },
    });
    createInterface({ input: this.child.stdout }).on("line", (line) => {
      this.lines.push(JSON.parse(line) as Line);
      for (const wake of this.waiters) wake();
    });
    this.child.stderr.on("data", (chunk: Buffer) => this.stderr.push(chunk.toString()));
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code)));
  }

  /** Writes one line to the bridge's stdin. */
  send(message: unknown): void {
    this.child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  }

  /** The first line (seen or to come) that `match` accepts. */
  next(match: (line: Line) => boolean, timeoutMs = 10_000): Promise<Line> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.lines.find(match);
        if (!found) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no matching line in ${timeoutMs} ms; got ${JSON.stringify(this.lines)}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** The response to request `id`. */
  answer(id: string | number): Promise<Line> {
    return this.next((line) => line.id === id && ("result" in line || "error" in line));
  }

  /** Closes stdin, as a host does to stop the bridge, and waits for the exit code. */
  end(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  kill(): void {
    this.child.kill("SIGKILL");
  }
}

/** A 2026-07-28 request with the envelope a host would send. */
export function modern(
  id: string | number,
  method: string,
  params: Record<string, unknown> = {},
  meta: Record<string, unknown> = {},
) {
  return {
    jsonrpc: "2.0",
    id,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        ...meta,
      },
    },
  };
}
