import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unstable_startWorker } from "wrangler";
import * as z from "zod";
import type * as ClientModule from "../../shared/client/index.ts";
import { hmacKey, signJwt } from "../support/jwt.ts";
import { sh } from "../support/sh.ts";
import { bundledCopies, lowestOf, npmInstall, pinned, ROOT_PACKAGE } from "./support.ts";

const SECRET = "pack-test-secret-0123456789abcdef0123456789";
const JWT_SECRET = "pack-test-jwt-secret-0123456789abcdef0123";
const EXPORTS = [
  "server",
  "hono",
  "durable",
  "hub",
  "jwt",
  "oauth",
  "client",
  "client/auth",
] as const;

let project: string;

/** Type-checks the project with one of its configs; the compiler's complaints, one per line. */
async function typeErrors(config: string): Promise<string[]> {
  const { stdout } = await sh("npx", ["tsc", "-p", config], project);
  return stdout.split("\n").filter((line) => line.includes("error TS"));
}

/** Builds the project as `wrangler deploy` would and returns the bundle. */
async function bundle(): Promise<string> {
  const out = join(project, "out");
  const built = await sh("npx", ["wrangler", "deploy", "--dry-run", "--outdir", out], project);
  expect(built.code, built.stderr).toBe(0);
  return readFile(join(out, "index.js"), "utf8");
}

/** Starts the project's Worker, runs `use` against its URL, and stops it. */
async function withWorker(use: (origin: string) => Promise<void>): Promise<void> {
  const worker = await unstable_startWorker({
    config: join(project, "wrangler.toml"),
    bindings: {
      EDGEMCP_SECRET: { type: "secret_text", value: SECRET },
      JWT_SECRET: { type: "secret_text", value: JWT_SECRET },
    },
    dev: {
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: false,
      logLevel: "error",
      persist: join(project, ".wrangler-state"),
    },
  });
  try {
    await worker.ready;
    await use((await worker.url).origin);
  } finally {
    await worker.dispose();
  }
}

const CallResult = z.object({ structuredContent: z.object({ greeting: z.string() }) });

/** Calls the Worker through the packed client and the packed `edgemcp` command. */
async function callBothWays(origin: string): Promise<void> {
  const entry = createRequire(join(project, "package.json")).resolve("edgemcp/client");
  const { connect } = (await import(pathToFileURL(entry).href)) as typeof ClientModule;
  const client = await connect(`${origin}/mcp/hello`);
  const { result } = await client.callTool("greet", { name: "Ann" });
  expect(result.structuredContent).toEqual({ greeting: "Hello, Ann!" });
  const bin = join(project, "node_modules", ".bin", "edgemcp");
  const viaHub = await sh(
    bin,
    ["call", `${origin}/mcp`, "hello__greet", "--args", '{"name":"Bo"}', "--json"],
    project,
  );
  expect(viaHub.code, viaHub.stderr).toBe(0);
  expect(CallResult.parse(JSON.parse(viaHub.stdout)).structuredContent.greeting).toBe("Hello, Bo!");
  const refused = await sh(bin, ["call", `${origin}/mcp/hello`, "refuse"], project);
  expect([refused.code, refused.stdout.trim()]).toEqual([1, "No, thank you."]);
}

/**
 * The private endpoint (edgemcp/oauth's sign-in, then edgemcp/jwt): a caller without a token is
 * sent to the Worker's own authorization server, and one with the issuer's JWT is served.
 */
async function callPrivate(origin: string): Promise<void> {
  const endpoint = `${origin}/mcp/private`;
  const anonymous = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  expect(anonymous.status).toBe(401);
  const challenge = anonymous.headers.get("www-authenticate") ?? "";
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  expect(metadataUrl, challenge).toBe(`${origin}/.well-known/oauth-protected-resource/mcp/private`);
  const metadata = z
    .object({ resource: z.string(), authorization_servers: z.array(z.string()) })
    .parse(await (await fetch(metadataUrl!)).json());
  expect(metadata).toMatchObject({ resource: endpoint, authorization_servers: [origin] });
  const server = await fetch(`${origin}/.well-known/oauth-authorization-server`);
  expect(z.object({ issuer: z.string() }).parse(await server.json()).issuer).toBe(origin);

  const token = await signJwt(await hmacKey(JWT_SECRET), {
    iss: "https://issuer.example",
    aud: endpoint,
    sub: "packed-user",
  });
  const entry = createRequire(join(project, "package.json")).resolve("edgemcp/client");
  const { connect } = (await import(pathToFileURL(entry).href)) as typeof ClientModule;
  const client = await connect(endpoint, { headers: { Authorization: `Bearer ${token}` } });
  try {
    const { result } = await client.callTool("greet", { name: "Cy" });
    expect(result.structuredContent).toEqual({ greeting: "Hello, Cy!" });
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "edgemcp-packed-"));
  await cp(join(import.meta.dirname, "fixture"), project, { recursive: true });
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "packed", private: true, type: "module" }),
  );
  const installed = await npmInstall(project, [
    inject("edgemcpTarball"),
    pinned("zod"),
    pinned("hono"),
    pinned("wrangler"),
    pinned("typescript"),
    pinned("@cloudflare/workers-types"),
  ]);
  expect(installed.code, installed.stderr).toBe(0);
  const typed = await sh("npx", ["wrangler", "types"], project);
  expect(typed.code, typed.stderr).toBe(0);
});

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe("the packed edgemcp tarball", () => {
  it("ships the library, the command and the docs, and no example servers or tests", async () => {
    const { stdout } = await sh("tar", ["-tzf", inject("edgemcpTarball")], tmpdir());
    const files = stdout.trim().split("\n");
    const outside = files.filter(
      (file) =>
        !/^package\/(dist\/.*\.(js|d\.ts)|package\.json|README\.md|LICENSE|CHANGELOG\.md)$/.test(
          file,
        ),
    );
    expect(outside).toEqual([]);
    expect(files.filter((file) => /servers|\/test\/|worker\/index|\.test\./.test(file))).toEqual(
      [],
    );
    expect(files).toContain("package/dist/cli/main.js");
  });

  it("gives every entry point ESM code and declarations", async () => {
    const manifest = z
      .object({
        exports: z.record(
          z.string(),
          z.union([z.string(), z.object({ types: z.string(), default: z.string() })]),
        ),
      })
      .parse(
        JSON.parse(await readFile(join(project, "node_modules/edgemcp/package.json"), "utf8")),
      );
    for (const name of EXPORTS) {
      const entry = manifest.exports[`./${name}`];
      expect(entry, name).toMatchObject({
        types: expect.stringMatching(/\.d\.ts$/),
        default: expect.stringMatching(/\.js$/),
      });
      if (typeof entry === "string" || entry === undefined) continue;
      const root = join(project, "node_modules/edgemcp");
      expect(await readFile(join(root, entry.types), "utf8")).toMatch(/^export /m);
      // ESM (the bundle test below imports every entry point through wrangler's bundler).
      const code = await readFile(join(root, entry.default), "utf8");
      expect(code).toMatch(/^export /m);
      expect(code).not.toMatch(/\bmodule\.exports\b|\brequire\(/);
    }
  });
});

describe.each([
  ["the newest zod and hono the peer ranges allow", "newest"],
  ["the lowest zod and hono the peer ranges allow", "lowest"],
] as const)("a Worker project on %s", (_label, which) => {
  beforeAll(async () => {
    const { zod, hono } = ROOT_PACKAGE.peerDependencies;
    if (zod === undefined || hono === undefined) throw new Error("zod and hono must be peers");
    const versions = which === "lowest" ? [lowestOf(zod), lowestOf(hono)] : [zod, hono];
    const installed = await npmInstall(project, [`zod@${versions[0]}`, `hono@${versions[1]}`]);
    expect(installed.code, installed.stderr).toBe(0);
  });

  it("type-checks under `wrangler types` with skipLibCheck off", async () => {
    const errors = await typeErrors("tsconfig.json");
    // hono before 4.12.3 fails its own declarations under TypeScript 6 (ClientResponse
    // against the runtime's Response), with or without edgemcp: only those may appear.
    expect(
      errors.filter((line) => which === "newest" || !line.startsWith("node_modules/hono/")),
    ).toEqual([]);
  });

  it("type-checks under @cloudflare/workers-types with skipLibCheck off", async () => {
    const errors = await typeErrors("tsconfig.workers-types.json");
    expect(
      errors.filter((line) => which === "newest" || !line.startsWith("node_modules/hono/")),
    ).toEqual([]);
  });

  it("builds with wrangler deploy --dry-run, carrying one copy of zod", async () => {
    const copies = bundledCopies(await bundle());
    expect([...(copies.get("zod") ?? [])]).toEqual(["node_modules/zod"]);
    expect([...(copies.get("edgemcp") ?? [])]).toEqual(["node_modules/edgemcp"]);
    expect([...(copies.get("@cloudflare/workers-oauth-provider") ?? [])]).toEqual([
      "node_modules/@cloudflare/workers-oauth-provider",
    ]);
  });

  it("runs, answers the packed client and command, and refers an anonymous caller of its private endpoint to sign-in", async () => {
    await withWorker(async (origin) => {
      await callBothWays(origin);
      await callPrivate(origin);
    });
  });
});
