import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, WORKERD } from "../bench/workerd.ts";
import { mcpRequest } from "../support/mcp-request.ts";

const WRANGLER = join(
  resolve(createRequire(import.meta.url).resolve("wrangler/package.json"), ".."),
  "bin",
  "wrangler.js",
);
const API = JSON.stringify(resolve("worker/mcp/index.ts"));
const CACHE = resolve("node_modules/.cache/edgemcp-startup");

// A user's Worker: its tools (two of them broken unless `fixed`) and a resource template.
const worker = (fixed: boolean) => `
import * as z from "zod";
import { defineServer, mcpHandler, resourceTemplate, tool } from ${API};

export default mcpHandler(
  defineServer({
    name: "weather",
    version: "1.0.0",
    tools: [
      tool({ name: ${fixed ? '"get_weather"' : '"get weather"'}, run: () => "sunny" }),
      tool({
        name: "count",
        input: ${fixed ? "z.object({ xs: z.array(z.number()) })" : "z.array(z.number())"},
        run: () => "0",
      }),
    ],
    resourceTemplates: [
      resourceTemplate({ uriTemplate: ${fixed ? '"notes://{id}"' : '"notes://{id"'}, name: "note", read: () => "" }),
    ],
  }),
);
`;

/**
 * Builds a Worker the way a deploy does (`wrangler deploy --dry-run`), then starts its bundle in
 * workerd on `port`, which is what `wrangler dev` and a deployment do with it.
 */
async function build(dir: string, fixed: boolean, port: number): Promise<string> {
  await writeFile(join(dir, "index.ts"), worker(fixed));
  await writeFile(
    join(dir, "wrangler.toml"),
    'name = "weather"\nmain = "index.ts"\ncompatibility_date = "2026-11-01"\n',
  );
  await promisify(execFile)(
    process.execPath,
    [WRANGLER, "deploy", "--dry-run", "--outdir", "out"],
    { cwd: dir },
  );
  const config = join(dir, "worker.capnp");
  await writeFile(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "index.js", esModule = embed "out/index.js")],
  compatibilityDate = "2026-11-01",
);
`,
  );
  return config;
}

describe("a Worker whose server definition is broken", () => {
  let dir: string;
  beforeAll(async () => {
    // Inside the project, so the Worker resolves zod as an installed project would.
    await mkdir(CACHE, { recursive: true });
    dir = await mkdtemp(join(CACHE, "definition-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("builds, then fails to start with every problem and its fix in one message", async () => {
    const config = await build(dir, false, await freePort());
    const started = spawn(WORKERD, ["serve", config], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    started.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    started.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((done) => started.once("exit", done));
    expect(code).not.toBe(0);
    expect(output).toContain('Server "weather" has 3 problems in its definition:');
    expect(output).toContain(
      '- tool "get weather": a tool name is 1-128 characters of A-Z a-z 0-9 _ . - with no spaces; rename it (e.g. "get_weather").',
    );
    expect(output).toContain(
      '- tool "count": arguments are a JSON object, so the input schema\'s root needs type "object" (it has type "array"); wrap the value in an object, e.g. z.object({ value: ... }).',
    );
    expect(output).toMatch(/- resource template "notes:\/\/\{id": .*unclosed/);
  });

  it("once fixed, starts and serves without EDGEMCP_SECRET (it seals nothing)", async () => {
    const port = await freePort();
    const config = await build(dir, true, port);
    const started = spawn(WORKERD, ["serve", config], { stdio: ["ignore", "ignore", "pipe"] });
    let output = "";
    started.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    try {
      let response: Response | undefined;
      for (let tries = 0; !response && tries < 200 && started.exitCode === null; tries++) {
        const request = mcpRequest("tools/list");
        response = await fetch(`http://127.0.0.1:${port}/`, {
          method: "POST",
          headers: request.headers,
          body: await request.text(),
        }).catch(() => new Promise<undefined>((r) => setTimeout(() => r(undefined), 100)));
      }
      expect(output).toBe("");
      expect(response?.status).toBe(200);
      const body = (await response!.json()) as { result: { tools: { name: string }[] } };
      expect(body.result.tools.map((t) => t.name)).toEqual(["get_weather", "count"]);
    } finally {
      started.kill();
    }
  });
});
