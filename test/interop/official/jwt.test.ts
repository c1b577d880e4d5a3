import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpRequest } from "../../support/mcp-request.ts";
import { epoch, keyPair, signJwt, type SigningKey } from "../../support/jwt.ts";
import { startWorker, type StartedWorker } from "../../support/start-worker.ts";
import { CLIENT_INFO } from "../support/clients.ts";

const ISSUER = "https://login.example";

let es: SigningKey;
let rs: SigningKey;
let jwks: Server;
let jwksFetches = 0;
let worker: StartedWorker;
let base: string;

// A Worker that takes JWTs from ISSUER, whose keys a JWKS endpoint on loopback publishes.
beforeAll(async () => {
  es = await keyPair("ES256", "es-1");
  rs = await keyPair("RS256", "rs-1");
  jwks = createServer((request, response) => {
    if (request.url !== "/jwks") return void response.writeHead(404).end();
    jwksFetches++;
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ keys: [es.jwk, rs.jwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
  const { port } = jwks.address() as AddressInfo;
  worker = await startWorker({
    JWT_ISSUER: ISSUER,
    JWT_JWKS_URL: `http://127.0.0.1:${port}/jwks`,
  });
  base = worker.url.origin;
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await new Promise((resolve) => jwks?.close(resolve));
});

const token = (key: SigningKey, aud: string, extra: Record<string, unknown> = {}) =>
  signJwt(key, { iss: ISSUER, aud, sub: "jwt-ann", ...extra });

async function v2Client(path: string, authorization?: string, pin = true): Promise<Client> {
  const client = new Client(CLIENT_INFO, {
    capabilities: {},
    ...(pin ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
  });
  const headers = authorization ? { Authorization: authorization } : undefined;
  await client.connect(
    new StreamableHTTPClientTransport(
      new URL(path, base),
      headers ? { requestInit: { headers } } : {},
    ),
  );
  return client;
}

const NOTE = { title: "From a JWT", body: "signed by the issuer" };

describe("JWT bearer tokens with the official clients", () => {
  it.each([
    ["2026-07-28, ES256", true, () => es],
    ["2025 (initialize), RS256", false, () => rs],
  ])("calls a mutating tool with a valid token (%s)", async (_, pin, key) => {
    const jwt = await token(key(), `${base}/mcp/notes`);
    const client = await v2Client("/mcp/notes", `Bearer ${jwt}`, pin);
    const result = await client.callTool({ name: "create_note", arguments: NOTE });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("From a JWT");
    await client.close();
    // The Worker fetched the issuer's keys and kept them.
    expect(jwksFetches).toBe(1);
  });

  it("routes a hub-audience token through the hub to the in-process server", async () => {
    const jwt = await token(es, `${base}/mcp`);
    const client = await v2Client("/mcp", `Bearer ${jwt}`);
    const result = await client.callTool({ name: "notes__create_note", arguments: NOTE });
    expect(result.isError).toBeFalsy();
    await client.close();
  });

  it("refuses an expired token: the official v1 client sees the 401", async () => {
    const jwt = await token(es, `${base}/mcp/notes`, { exp: epoch(-600) });
    const client = new V1Client(CLIENT_INFO, { capabilities: {} });
    const transport = new V1Transport(new URL("/mcp/notes", base), {
      requestInit: { headers: { Authorization: `Bearer ${jwt}` } },
    });
    // The SDK reports the status and the Worker's reason.
    await expect(client.connect(transport)).rejects.toMatchObject({
      code: 401,
      message: expect.stringMatching(/The token has expired/),
    });
    await client.close();
  });

  it("leads an anonymous client from the 401 to the issuer (RFC 9728), with the SDK's own discovery", async () => {
    const client = await v2Client("/mcp/notes");
    // Anonymous callers may read but not write.
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(["search_notes"]);
    await expect(client.callTool({ name: "create_note", arguments: NOTE })).rejects.toThrow(
      /401|bearer/i,
    );
    await client.close();

    // A raw request, as a client without the SDK's help sends it.
    const raw = mcpRequest(
      "tools/call",
      { name: "create_note", arguments: NOTE },
      { server: "notes" },
    );
    const response = await fetch(new Request(`${base}/mcp/notes`, raw));
    expect(response.status).toBe(401);
    const { resourceMetadataUrl } = extractWWWAuthenticateParams(response);
    expect(resourceMetadataUrl?.href).toBe(
      `${base}/.well-known/oauth-protected-resource/mcp/notes`,
    );
    const metadata = await discoverOAuthProtectedResourceMetadata(`${base}/mcp/notes`, {
      resourceMetadataUrl,
    });
    expect(metadata).toMatchObject({
      resource: `${base}/mcp/notes`,
      authorization_servers: [base, ISSUER],
    });
  });
});
