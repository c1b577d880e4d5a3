import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthOptions } from "../../../../shared/client/auth/index.ts";

/**
 * A protected MCP server and its authorization server as two real HTTP servers on loopback. They
 * behave until a test makes them hostile by changing what they answer: every answer is built
 * from the plain fields below when a request arrives.
 */
export type Hostile = {
  /** The MCP endpoint, e.g. http://127.0.0.1:40123/mcp. */
  mcp: string;
  /** The authorization server's issuer, e.g. http://127.0.0.1:40124 (no trailing slash). */
  issuer: string;
  /** Where the client says the browser comes back (nothing listens there). */
  redirectUri: string;
  prm: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** Writes the metadata answer itself instead of `metadata` (a body that is not JSON, a huge one). */
  metadataAnswer?: (response: ServerResponse) => void;
  registration: (asked: Record<string, unknown>) => Record<string, unknown>;
  /** Where /authorize redirects the browser, from the authorization request. */
  redirect: (request: URL) => URL;
  token: (form: URLSearchParams) => Record<string, unknown>;
  /** The token endpoint's status (200 unless a test says otherwise). */
  tokenStatus?: number;
  /** A scope the MCP endpoint asks for with 403 whatever a token carries (an endless step-up). */
  alwaysInsufficient?: string;
  /** Every request either server received, as "METHOD /path". */
  requests: string[];
  /** The browser: follows the authorization URL and hands back where it was redirected. */
  interact: NonNullable<AuthOptions["interact"]>;
  close(): Promise<void>;
};

const ACCESS = "access-token-value-never-shown";
const REFRESH = "refresh-token-value-never-shown";
export const CODE = "authorization-code-never-shown";
export const SECRETS = [ACCESS, REFRESH, CODE];

function send(response: ServerResponse, status: number, body: unknown, headers = {}): void {
  response
    .writeHead(status, { "content-type": "application/json", ...headers })
    .end(JSON.stringify(body));
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  return text;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {
  const server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export async function startHostile(): Promise<Hostile> {
  // The handlers read `h`, declared below, only when a request arrives.
  const resource = await listen(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    h.requests.push(`${req.method} ${path}`);
    if (path === "/.well-known/oauth-protected-resource/mcp") return send(res, 200, h.prm);
    if (path !== "/mcp") return send(res, 404, { error: "not found" });
    await bodyOf(req);
    const token = req.headers.authorization?.replace(/^Bearer /, "");
    if (token !== ACCESS) {
      return send(
        res,
        401,
        { error: "unauthorized" },
        {
          "www-authenticate": `Bearer resource_metadata="${resource.origin}/.well-known/oauth-protected-resource/mcp"`,
        },
      );
    }
    if (h.alwaysInsufficient) {
      return send(
        res,
        403,
        { error: "forbidden" },
        {
          "www-authenticate": `Bearer error="insufficient_scope", scope="${h.alwaysInsufficient}"`,
        },
      );
    }
    return send(res, 200, { jsonrpc: "2.0", id: 1, result: {} });
  });
  const auth = await listen(async (req, res) => {
    const url = new URL(req.url ?? "/", auth.origin);
    h.requests.push(`${req.method} ${url.pathname}`);
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      if (h.metadataAnswer) return h.metadataAnswer(res);
      return send(res, 200, h.metadata);
    }
    if (url.pathname === "/register") {
      return send(
        res,
        201,
        h.registration(JSON.parse(await bodyOf(req)) as Record<string, unknown>),
      );
    }
    if (url.pathname === "/authorize") {
      res.writeHead(302, { location: h.redirect(url).href }).end();
      return;
    }
    if (url.pathname === "/token") {
      return send(res, h.tokenStatus ?? 200, h.token(new URLSearchParams(await bodyOf(req))), {
        "cache-control": "no-store",
      });
    }
    return send(res, 404, { error: "not found" });
  });
  const issuer = auth.origin;
  const h: Hostile = {
    mcp: `${resource.origin}/mcp`,
    issuer,
    redirectUri: "http://127.0.0.1:9/callback",
    prm: { resource: `${resource.origin}/mcp`, authorization_servers: [issuer] },
    metadata: {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      registration_endpoint: `${issuer}/register`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      authorization_response_iss_parameter_supported: true,
    },
    registration: (asked) => ({
      client_id: "client-1",
      redirect_uris: asked.redirect_uris,
      token_endpoint_auth_method: "none",
    }),
    redirect: (request) => {
      const back = new URL(request.searchParams.get("redirect_uri") ?? "http://invalid/");
      back.searchParams.set("code", CODE);
      back.searchParams.set("state", request.searchParams.get("state") ?? "");
      back.searchParams.set("iss", issuer);
      return back;
    },
    token: () => ({
      access_token: ACCESS,
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: REFRESH,
    }),
    requests: [],
    interact: async ({ url }) => {
      const answer = await fetch(url, { redirect: "manual" });
      await answer.body?.cancel();
      return answer.headers.get("location") ?? "http://invalid/";
    },
    close: async () => {
      await closeServer(resource.server);
      await closeServer(auth.server);
    },
  };
  return h;
}
