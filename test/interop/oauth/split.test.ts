import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { build } from "esbuild";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_INFO } from "../support/clients.ts";
import { DrivenProvider } from "./sign-in.ts";

const HERE = join(dirname(fileURLToPath(import.meta.url)), "../../worker/oauth");

/** One of the two Workers of test/worker/oauth/split-workers.ts, bundled as its own script. */
async function bundle(name: "mcpWorker" | "authWorker"): Promise<string> {
  const built = await build({
    stdin: {
      contents: `import { ${name} } from "./split-workers.ts"; export default ${name};`,
      resolveDir: HERE,
      loader: "ts",
    },
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    external: ["cloudflare:*", "node:*"],
    logLevel: "silent",
  });
  return built.outputFiles[0]!.text;
}

const text = (result: unknown) =>
  String((result as { content?: { text?: string }[] }).content?.[0]?.text ?? "");

let mf: Miniflare;
let origin: string;

beforeAll(async () => {
  const common = {
    modules: true as const,
    compatibilityDate: "2026-11-01",
    compatibilityFlags: ["enable_request_signal", "nodejs_compat", "global_fetch_strictly_public"],
    bindings: { EDGEMCP_SECRET: `${crypto.randomUUID()}${crypto.randomUUID()}` },
    // One namespace, bound by both: the MCP Worker checks tokens where the other keeps them.
    kvNamespaces: { OAUTH_KV: "oauth" },
  };
  mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: [
        {
          ...common,
          name: "mcp",
          script: await bundle("mcpWorker"),
          serviceBindings: { SIGN_IN: "auth" },
        },
        { ...common, name: "auth", script: await bundle("authWorker") },
      ],
    }),
  );
  origin = (await mf.ready).origin;
});
afterAll(async () => {
  await mf?.dispose();
});

/** A client of the official SDK that signs in when refused, then connects again. */
async function signedIn(path: string, provider: DrivenProvider): Promise<Client> {
  const connect = async () => {
    const transport = new StreamableHTTPClientTransport(new URL(path, origin), {
      authProvider: provider as never,
    });
    const client = new Client(CLIENT_INFO, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    });
    await client.connect(transport);
    return { client, transport };
  };
  const first = await connect().catch((error: unknown) => error);
  expect(first).toBeInstanceOf(Error);
  await new StreamableHTTPClientTransport(new URL(path, origin), {
    authProvider: provider as never,
  }).finishAuth(provider.callback);
  return (await connect()).client;
}

describe("an MCP Worker whose authorization server is another Worker behind a service binding", () => {
  it("answers 401 naming metadata whose authorization server is its own origin, served by the other Worker", async () => {
    const refused = await fetch(`${origin}/mcp`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get("WWW-Authenticate") ?? "";
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(metadataUrl).toBe(`${origin}/.well-known/oauth-protected-resource/mcp`);
    const resource = (await (await fetch(metadataUrl!)).json()) as Record<string, unknown>;
    expect(resource.resource).toBe(`${origin}/mcp`);
    expect(resource.authorization_servers).toEqual([origin]);
    const server = await fetch(`${origin}/.well-known/oauth-authorization-server`);
    expect(server.status).toBe(200);
    const described = (await server.json()) as Record<string, unknown>;
    expect(described.issuer).toBe(origin);
    expect(described.token_endpoint).toBe(`${origin}/oauth/token`);
  });

  it("lets the official client discover, sign in on the other Worker, and call a tool as the person", async () => {
    const provider = new DrivenProvider();
    const client = await signedIn("/mcp", provider);
    expect(provider.authorizations).toBe(1);
    expect(provider.saved?.scope?.split(" ")).toContain("mcp");
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe("signed in as alice");
    await client.close();
  });

  it("refuses a token issued for another endpoint with 401 invalid_token", async () => {
    const provider = new DrivenProvider();
    const other = await signedIn("/mcp/other", provider);
    expect(text(await other.callTool({ name: "whoami", arguments: {} }))).toBe(
      "signed in as alice",
    );
    await other.close();
    const token = provider.saved?.access_token;
    expect(token).toBeTruthy();
    const refused = await fetch(`${origin}/mcp`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        Authorization: `Bearer ${token}`,
        "MCP-Protocol-Version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("WWW-Authenticate")).toMatch(/error="invalid_token"/);
  });
});
