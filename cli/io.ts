import { terminalText } from "./terminal-text.ts";

/** What a command reads and writes: the process's streams and environment, or a test's. */
export type Io = {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /**
   * Ctrl-C (SIGINT) while a command waits: the first one calls `handler` instead of ending the
   * process, a second one ends it at once. Returns what stops watching. Absent, Ctrl-C ends the
   * process as usual.
   */
  onInterrupt?: (handler: () => void) => () => void;
};

/** A command: its arguments (after the command name) in, an exit code out. */
export type Command = (args: string[], io: Io) => Promise<number>;

/**
 * Exit codes: done; the server or a check failed; the command was called wrongly; Ctrl-C
 * stopped it (128 + SIGINT, as a shell reports a process that SIGINT ended).
 */
export const Exit = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/**
 * Writes one line of text for a person to a stream, without the escape sequences and control
 * characters a server may have put in it (see `terminalText`).
 */
export function println(stream: NodeJS.WritableStream, text = ""): void {
  stream.write(`${terminalText(text)}\n`);
}
