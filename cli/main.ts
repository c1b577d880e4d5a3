#!/usr/bin/env node
// The `edgemcp` command: a stdio bridge, a conformance check, and list/call for scripts.
import { Exit } from "./io.ts";
import { run } from "./run.ts";

/** Resolves once everything written to the stream has been handed to the OS. */
function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => stream.write("", () => resolve()));
}

const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  console.error(`edgemcp needs Node 22 or newer (this is ${process.version}).`);
  process.exit(Exit.failed);
}
const code = await run(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  onInterrupt: (handler) => {
    let interrupted = false;
    const listener = () => {
      if (interrupted) process.exit(Exit.interrupted);
      interrupted = true;
      handler();
    };
    process.on("SIGINT", listener);
    return () => process.off("SIGINT", listener);
  },
});
// Exit now rather than when idle keep-alive connections time out: a host waits for the exit.
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
