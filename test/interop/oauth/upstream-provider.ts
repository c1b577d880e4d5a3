import { DemoInMemoryAuthProvider } from "@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js";
import {
  createOAuthMetadata,
  mcpAuthRouter,
} from "@modelcontextprotocol/sdk/server/auth/router.js";
import { createRequire } from "node:module";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

// Express comes with the SDK, without types: the little used here, typed here.
type Request = { headers: { authorization?: string } };
type Response = { json(body: unknown): void; status(code: number): Response };
type App = {
  get(path: string, handler: (request: Request, response: Response) => unknown): void;
  use(...handlers: unknown[]): void;
  listen(port: number, host: string): Server;
};
const express = createRequire(import.meta.url)("express") as () => App;

/** The person the upstream provider signs in (its user info answer). */
export const UPSTREAM_USER = { sub: "dana:42", name: "Dana Upstream", email: "dana@example.org" };

/**
 * A real OAuth authorization server on loopback, standing in for an upstream OpenID provider:
 * the MCP SDK's authorization server router (registration, authorization with PKCE, the token
 * endpoint) around its demo provider, which signs in without asking, plus the user info endpoint
 * and OpenID discovery document a provider has.
 */
export async function startUpstreamProvider(): Promise<{
  issuer: string;
  /** Registers the Worker as a client, as its operator does at the provider. */
  registerClient(clientId: string, secret: string, redirect: string): Promise<void>;
  tokensIssued(): number;
  close(): Promise<void>;
}> {
  const app = express();
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const provider = new DemoInMemoryAuthProvider();
  const options = {
    provider,
    issuerUrl: new URL(issuer),
    scopesSupported: ["openid", "profile", "email"],
  };
  let issued = 0;
  app.get("/.well-known/openid-configuration", (_request, response) => {
    response.json({ ...createOAuthMetadata(options), userinfo_endpoint: `${issuer}userinfo` });
  });
  app.get("/userinfo", async (request, response) => {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
    try {
      await provider.verifyAccessToken(token);
      response.json(UPSTREAM_USER);
    } catch {
      response.status(401).json({ error: "invalid_token" });
    }
  });
  app.use("/token", (_request: Request, _response: Response, next: () => void) => {
    issued += 1;
    next();
  });
  app.use(mcpAuthRouter(options));
  return {
    issuer,
    async registerClient(clientId, secret, redirect) {
      await provider.clientsStore.registerClient({
        client_id: clientId,
        client_secret: secret,
        client_id_issued_at: Math.floor(Date.now() / 1000),
        client_secret_expires_at: 0,
        client_name: "edgemcp",
        redirect_uris: [redirect],
        token_endpoint_auth_method: "client_secret_post",
        grant_types: ["authorization_code"],
        response_types: ["code"],
      });
    },
    tokensIssued: () => issued,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
