import { createHash } from "node:crypto";
import type { FetchLike } from "../../../../shared/client/index.ts";
import type { AuthOptions } from "../../../../shared/client/auth/index.ts";

/**
 * A protected MCP server and its authorization server, in this process, each answer a plain
 * object the test may change to make it hostile. Sign-in is granted at once: `interact` plays the
 * browser by building the redirect the server would send.
 */
export const MCP = "https://mcp.example/mcp";
export const ISSUER = "https://auth.example";
export const REDIRECT = "http://127.0.0.1:4567/callback";

export type World = {
  prm: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** Raw metadata body, replacing `metadata` when set. */
  metadataBody?: string;
  registration: (body: Record<string, unknown>) => Record<string, unknown>;
  token: (form: URLSearchParams) => { status: number; body: Record<string, unknown> };
  /** What the callback carries besides `code`: `state` and `iss` by default as they should be. */
  callback: (request: URL) => URL;
  /** Scopes the MCP server asks for with 403 (none: every valid token is enough). */
  requiredScope?: string;
  issued: Map<string, string>;
  /** The scope of the last authorization request, granted by the next code exchange. */
  lastScope?: string | undefined;
  requests: string[];
  authorizations: URL[];
  tokenForms: URLSearchParams[];
  fetch: FetchLike;
  interact: AuthOptions["interact"];
};

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export function world(): World {
  let counter = 0;
  const w: World = {
    prm: { resource: MCP, authorization_servers: [ISSUER], scopes_supported: ["mcp:read"] },
    metadata: {
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/authorize`,
      token_endpoint: `${ISSUER}/token`,
      registration_endpoint: `${ISSUER}/register`,
      code_challenge_methods_supported: ["S256"],
      response_types_supported: ["code"],
      token_endpoint_auth_methods_supported: ["none"],
      authorization_response_iss_parameter_supported: true,
    },
    registration: (body) => ({
      client_id: "client-1",
      redirect_uris: body.redirect_uris,
      token_endpoint_auth_method: "none",
    }),
    token: (form) => {
      counter += 1;
      const token = `access-${counter}-secret`;
      w.issued.set(token, form.get("scope") ?? w.lastScope ?? "");
      return {
        status: 200,
        body: {
          access_token: token,
          token_type: "Bearer",
          expires_in: 3600,
          refresh_token: `refresh-${counter}-secret`,
        },
      };
    },
    callback: (request) => {
      const back = new URL(request.searchParams.get("redirect_uri") ?? REDIRECT);
      back.searchParams.set("code", "code-secret");
      back.searchParams.set("state", request.searchParams.get("state") ?? "");
      back.searchParams.set("iss", ISSUER);
      return back;
    },
    issued: new Map(),
    requests: [],
    authorizations: [],
    tokenForms: [],
    fetch: async (url, init) => {
      const target = new URL(url);
      w.requests.push(`${init.method ?? "GET"} ${target.origin}${target.pathname}`);
      if (target.href === MCP) return mcp(w, new Headers(init.headers));
      if (target.href === `https://mcp.example/.well-known/oauth-protected-resource/mcp`)
        return json(w.prm);
      if (target.href === `${ISSUER}/.well-known/oauth-authorization-server`) {
        return w.metadataBody === undefined
          ? json(w.metadata)
          : new Response(w.metadataBody, { headers: { "content-type": "application/json" } });
      }
      if (target.href === `${ISSUER}/register`)
        return json(w.registration(JSON.parse(String(init.body))), 201);
      if (target.href === `${ISSUER}/token`) {
        const form = new URLSearchParams(String(init.body));
        w.tokenForms.push(form);
        const answer = w.token(form);
        return json(answer.body, answer.status);
      }
      return new Response("not found", { status: 404 });
    },
    interact: async ({ url }) => {
      w.authorizations.push(url);
      w.lastScope = url.searchParams.get("scope") ?? undefined;
      return w.callback(url);
    },
  };
  return w;
}

/** The MCP endpoint: 401 without a known token, 403 when a required scope is missing. */
function mcp(w: World, headers: Headers): Response {
  const token = headers.get("authorization")?.replace(/^Bearer /, "");
  const scope = token === undefined ? undefined : w.issued.get(token);
  if (scope === undefined) {
    return json({ error: "unauthorized" }, 401, {
      "www-authenticate": `Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp"`,
    });
  }
  if (w.requiredScope && !w.requiredScope.split(" ").every((s) => scope.split(" ").includes(s))) {
    return json({ error: "forbidden" }, 403, {
      "www-authenticate": `Bearer error="insufficient_scope", scope="${w.requiredScope}"`,
    });
  }
  return json({ ok: true });
}

/** The S256 challenge of a verifier, to check what the client sent. */
export const s256 = (verifier: string): string =>
  createHash("sha256").update(verifier).digest("base64url");
