import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { UnauthorizedError as V1UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartedWorker } from "../../support/start-worker.ts";
import { CLIENT_INFO } from "../support/clients.ts";
import { DrivenProvider } from "./sign-in.ts";

// A host that identifies itself with a Client ID Metadata Document: the document is served over
// HTTPS on loopback by this test (a certificate made for 127.0.0.1, trusted by workerd through
// NODE_EXTRA_CA_CERTS, read when wrangler loads), and the Worker, served on loopback, is told to
// accept documents there (OAUTH_LOCAL_CLIENT_IDS). No registration happens: the client_id is the
// document's URL, and the Worker fetches it.
let folder: string;
let documents: Server;
let origin: string;
let worker: StartedWorker;
const fetched: string[] = [];
// Words in documents the Worker must refuse, which its error pages must not repeat.
const MARKER = "do-not-echo-7c1f";

function document(path: string, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    client_id: `${origin}${path}`,
    client_name: "Loopback host",
    redirect_uris: ["http://127.0.0.1:7777/callback"],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...overrides,
  });
}

const ANSWERS: Record<string, () => { type: string; body: string }> = {
  "/client.json": () => ({ type: "application/json", body: document("/client.json") }),
  "/large.json": () => ({
    type: "application/json",
    body: document("/large.json", { client_name: `${MARKER}${"x".repeat(8000)}` }),
  }),
  "/html.json": () => ({ type: "text/html", body: `<html>${MARKER}</html>` }),
  "/other.json": () => ({
    type: "application/json",
    body: document("/other.json", { client_id: `${origin}/client.json`, client_name: MARKER }),
  }),
};

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "edgemcp-cimd-"));
  const [key, cert] = [join(folder, "key.pem"), join(folder, "cert.pem")];
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
      .concat(["-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1"])
      .concat(["-addext", "subjectAltName=IP:127.0.0.1"]),
    { stdio: "ignore" },
  );
  documents = createServer(
    { key: await readFile(key), cert: await readFile(cert) },
    (request, response) => {
      const answer = ANSWERS[request.url ?? ""];
      fetched.push(request.url ?? "");
      if (!answer) return void response.writeHead(404).end();
      const { type, body } = answer();
      response.writeHead(200, { "Content-Type": type }).end(body);
    },
  );
  await new Promise<void>((done) => documents.listen(0, "127.0.0.1", done));
  origin = `https://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  process.env.NODE_EXTRA_CA_CERTS = cert;
  // Loaded now, so that wrangler's runtime reads the certificate above.
  const { startWorker } = await import("../../support/start-worker.ts");
  worker = await startWorker({ OAUTH_LOCAL_CLIENT_IDS: "on" });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await new Promise((done) => documents?.close(done));
  await rm(folder, { recursive: true, force: true });
});

/** A driven host whose client ID is its metadata document's URL. */
class DocumentProvider extends DrivenProvider {
  clientIds: string[] = [];
  get clientMetadataUrl() {
    return `${origin}/client.json`;
  }
  override async redirectToAuthorization(url: URL) {
    this.clientIds.push(url.searchParams.get("client_id") ?? "");
    await super.redirectToAuthorization(url);
  }
}

const notes = () => new URL(`${worker.url.origin}/mcp/notes`);

describe.each([
  [
    "v2 (@modelcontextprotocol/client)",
    async (provider: DocumentProvider) => {
      const transport = new StreamableHTTPClientTransport(notes(), { authProvider: provider });
      const client = new Client(CLIENT_INFO, {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      });
      await client.connect(transport);
      const finish = () => transport.finishAuth(provider.callback);
      return { client, finish, Unauthorized: UnauthorizedError as new () => Error };
    },
  ],
  [
    "v1 (@modelcontextprotocol/sdk)",
    async (provider: DocumentProvider) => {
      const transport = new V1Transport(notes(), { authProvider: provider });
      const client = new V1Client(CLIENT_INFO);
      await client.connect(transport);
      const finish = () => transport.finishAuth(provider.code);
      return { client, finish, Unauthorized: V1UnauthorizedError as new () => Error };
    },
  ],
])("the official %s client with a client metadata document", (_name, connect) => {
  it("signs in with the document's URL as its client ID, without registering, and creates a note", async () => {
    const provider = new DocumentProvider();
    const { client, finish, Unauthorized } = await connect(provider);
    const before = fetched.length;
    const create = () =>
      client.callTool({ name: "create_note", arguments: { title: "From a CIMD host", body: "" } });
    const refused = await create().catch((error: unknown) => error);
    expect(refused, String(refused)).toBeInstanceOf(Unauthorized);
    expect(provider.clientIds).toEqual([`${origin}/client.json`]);
    await finish();
    expect(provider.saved?.scope?.split(" ")).toContain("mcp");
    const created = await create();
    expect(created.isError).toBeFalsy();
    expect(JSON.stringify(created)).toMatch(/note-\d+/);
    // The Worker read the document itself (for the page and for the code's exchange).
    expect(fetched.slice(before)).toContain("/client.json");
    await client.close();
  });
});

describe("a client metadata document the Worker refuses, fetched over loopback", () => {
  it.each([
    ["larger than 5 KB", "/large.json"],
    ["not JSON", "/html.json"],
    ["naming another client_id", "/other.json"],
  ])("is refused when %s, on a page that repeats nothing of it", async (_what, path) => {
    const params = new URLSearchParams({
      response_type: "code",
      client_id: `${origin}${path}`,
      redirect_uri: "http://127.0.0.1:7777/callback",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
      state: "s",
      resource: notes().href,
    });
    const page = await fetch(`${worker.url.origin}/authorize?${params.toString()}`, {
      redirect: "manual",
    });
    expect(page.status).toBe(400);
    expect(page.headers.get("Location")).toBeNull();
    const html = await page.text();
    expect(html).toContain("This app could not be verified");
    expect(html).not.toContain(MARKER);
    expect(fetched).toContain(path);
  });
});
