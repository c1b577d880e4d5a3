import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

// The packages' own folders (their exports map their package.json elsewhere, or not at all).
const NODE_MODULES = join(import.meta.dirname, "..", "..", "..", "node_modules");
const PRELOAD = join(import.meta.dirname, "loopback-preload.ts");
const MAX_OUTPUT_CHARS = 64_000;

/** A server nobody here wrote, running on loopback for the tests. */
export type ThirdPartyServer = {
  /** Its MCP endpoint, e.g. http://127.0.0.1:40123/mcp (an HTTP+SSE server's stream, /sse) */
  url: string;
  /** The package and version it comes from, for messages and the README's claims. */
  label: string;
  /** What it printed so far (stdout and stderr, the last 64 KB), to explain a failure. */
  output(): string;
  /** Stops it and waits for its exit. */
  stop(): Promise<void>;
};

type Recipe = {
  label: string;
  script: string;
  args: string[];
  /** The path of its endpoint, when not /mcp. */
  path?: string;
};

function versionOf(name: string): string {
  const manifest = JSON.parse(readFileSync(join(NODE_MODULES, name, "package.json"), "utf8"));
  return (manifest as { version: string }).version;
}

function sdkExample(file: string): Recipe {
  const name = "@modelcontextprotocol/sdk";
  return {
    label: `${name} ${versionOf(name)} examples/server/${file}`,
    script: join(NODE_MODULES, name, "dist", "esm", "examples", "server", file),
    args: [],
  };
}

/**
 * The servers the project is tested against. Each listens on whatever port its code picks;
 * the preload moves it to a free loopback port.
 */
export const THIRD_PARTY = {
  /** The official reference server, in Streamable HTTP mode (2025-11-25, sessions, SSE replies). */
  everything: (): Recipe => ({
    label: `@modelcontextprotocol/server-everything ${versionOf("@modelcontextprotocol/server-everything")}`,
    script: join(NODE_MODULES, "@modelcontextprotocol/server-everything", "dist", "index.js"),
    args: ["streamableHttp"],
  }),
  /** The same server in HTTP+SSE mode, the transport of 2024-11-05 (GET /sse, POST /message). */
  everythingSse: (): Recipe => ({
    label: `@modelcontextprotocol/server-everything ${versionOf("@modelcontextprotocol/server-everything")} (sse)`,
    script: join(NODE_MODULES, "@modelcontextprotocol/server-everything", "dist", "index.js"),
    args: ["sse"],
    path: "/sse",
  }),
  /** The SDK v1's main example: tools, prompts, resources, elicitation, tasks, an event store. */
  sdkSimple: (): Recipe => sdkExample("simpleStreamableHttp.js"),
  /** The SDK v1's form elicitation example: registration, a two-step event, an address. */
  sdkElicitationForm: (): Recipe => sdkExample("elicitationFormExample.js"),
  /** The SDK v1's example that closes a call's stream midway for the client to resume it. */
  sdkPolling: (): Recipe => sdkExample("ssePollingExample.js"),
} satisfies Record<string, () => Recipe>;

export type ThirdPartyName = keyof typeof THIRD_PARTY;

/**
 * Starts one of the servers in its own Node process on a free 127.0.0.1 port and resolves
 * once it listens (rejects with its output if it exits first or takes over `timeoutMs`).
 */
export function startThirdParty(
  name: ThirdPartyName,
  { timeoutMs = 30_000 }: { timeoutMs?: number } = {},
): Promise<ThirdPartyServer> {
  const recipe = THIRD_PARTY[name]();
  const child = spawn(
    process.execPath,
    [
      "--experimental-strip-types",
      "--no-warnings",
      "--import",
      PRELOAD,
      recipe.script,
      ...recipe.args,
    ],
    { stdio: ["ignore", "pipe", "pipe", "ipc"], env: { ...process.env, NODE_ENV: "test" } },
  );
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-MAX_OUTPUT_CHARS);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${recipe.label} did not listen within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${recipe.label} exited (${signal ?? code}) before listening:\n${output}`));
    });
    child.on("message", (message: { listening?: number }) => {
      if (typeof message.listening !== "number") return;
      clearTimeout(timer);
      resolve({
        url: `http://127.0.0.1:${message.listening}${recipe.path ?? "/mcp"}`,
        label: recipe.label,
        output: () => output,
        stop,
      });
    });
  });
}
