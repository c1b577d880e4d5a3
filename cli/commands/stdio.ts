import { createInterface } from "node:readline";
import { signedInFetch } from "../auth/signed-in.ts";
import { Bridge } from "../stdio/bridge.ts";
import { Exit, println } from "../io.ts";
import { serverCommand } from "../options.ts";

const HELP = `Usage: edgemcp stdio <url> [options]

Serves a remote MCP server (Streamable HTTP, any implementation) to a host that only spawns
processes: JSON-RPC messages on stdin and stdout, one per line; diagnostics on stderr. Works
with 2026-07-28 and 2025 hosts alike; progress, cancellation, input requests and listen
notifications pass through.

Options:
  -H, --header "Name: value"   send a header with every request (repeatable)
      --bearer <token>         send "Authorization: Bearer <token>"

Prefer EDGEMCP_TOKEN for a token: a host config's "env" keeps it out of the process list.`;

/** How long requests still running when stdin closes may take to answer. */
const CLOSE_GRACE_MS = 10_000;

/** `edgemcp stdio`: the bridge, until the host closes stdin or stops it with a signal. */
export const stdio = serverCommand({
  help: HELP,
  accepts: [],
  rest: 0,
  run: async ({ url, given }, io) => {
    const bridge = new Bridge({
      url: url.href,
      headers: given.headers,
      fetch: signedInFetch(url, given, io.env, (input, init) => fetch(input, init)),
      send: (message) => io.stdout.write(`${JSON.stringify(message)}\n`),
      log: (line) => println(io.stderr, `edgemcp stdio: ${line}`),
    });
    // A host stops the bridge by closing stdin (then waits a little for the exit), or with a
    // signal, after which nothing is waited for.
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
    const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
    const stopped = new Promise<void>((resolve) =>
      stop.signal.addEventListener("abort", () => resolve(), { once: true }),
    );
    const read = (async () => {
      for await (const line of lines) bridge.receive(line);
    })();
    await Promise.race([read, stopped]);
    lines.close();
    await bridge.close(CLOSE_GRACE_MS, stop.signal);
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
    return Exit.ok;
  },
});
