import { Hono } from "hono";
import { bearerTokens } from "./auth/bearer.ts";
import { jwtBearer, jwtIssuer } from "./auth/jwt.ts";
import { metadataResponse, protectedResourceMetadata } from "./auth/metadata.ts";
import type { AnonymousAccess } from "./auth/access.ts";
import { accessPolicy } from "./auth/policy.ts";
import { durableObjects } from "./durable/index.ts";
import { demoSignIn } from "./servers/sign-in.ts";
import { hubServer } from "./hub/hub-server.ts";
import { bareNamesOf, hubNamesOf } from "./hub/policy-names.ts";
import { remoteUpstreams } from "./hub/upstreams.ts";
import { METADATA_PREFIX } from "./mcp/handler.ts";
import { mcpApp } from "./mcp/hono.ts";
import { readVar } from "./env-vars.ts";
import { limitsOver } from "./durable/limits.ts";
import { relayApp } from "./relay/index.ts";
import { publishedDevTokens, refusingPublishedTokens } from "./servers/dev-tokens.ts";
import { directory } from "./servers/directory.ts";
import { PLAYGROUND_CLIENT_PATH } from "../shared/playground-paths.ts";
import { playgroundClient } from "./servers/playground-client.ts";
import { servers } from "./servers/index.ts";

// Not strict: /mcp/ and /mcp/notes/ are the same endpoints as /mcp and /mcp/notes.
const app = new Hono<{ Bindings: Cloudflare.Env }>({ strict: false });

// Callers present a token from this Worker's own sign-in (README, "Sign-in for your server"), a
// bearer token from API_TOKENS, or a JWT from the issuer in JWT_ISSUER (README, "JWT"). A
// request without one is refused, except where a server below lets anonymous callers in.
// The published development tokens work on localhost only (README, "Tokens").
const authenticate = refusingPublishedTokens(
  demoSignIn.authenticate(bearerTokens({ variable: "API_TOKENS", next: jwtBearer() })),
);

// Each endpoint's RFC 9728 protected resource metadata, named by its 401 challenges: routed
// before the sign-in's paths, whose own metadata would name the sign-in only, not the JWT issuer.
app.get(`${METADATA_PREFIX}/mcp/:server?`, (c) => {
  const server = c.req.param("server");
  if (server !== undefined && !(server in servers)) return c.notFound();
  const url = new URL(c.req.url);
  const path = `/mcp${server === undefined ? "" : `/${server}`}`;
  const signIn = demoSignIn.metadataFor(url.origin, path);
  return metadataResponse(
    protectedResourceMetadata(url.origin + path, {
      // This Worker's own sign-in first, then the JWT issuer; static API tokens have none.
      authorizationServers: [...(signIn?.authorizationServers ?? []), jwtIssuer(c.env)].filter(
        (issuer) => issuer !== undefined,
      ),
      scopes: signIn?.scopes ?? [],
      name: server === undefined ? "edgemcp hub" : (servers[server]?.definition.title ?? server),
    }),
  );
});

// The authorization server: discovery, registration, the sign-in page, tokens.
for (const path of demoSignIn.paths)
  app.all(path, (c) => demoSignIn.fetch(c.req.raw, c.env, c.executionCtx as ExecutionContext));
const durable = (env: Cloudflare.Env) =>
  durableObjects({
    rendezvous: env.MCP_RENDEZVOUS,
    bus: env.MCP_BUS,
    tasks: env.MCP_TASKS,
    limits: env.MCP_LIMITS,
  });

/**
 * What callers without a token may do on each server: "read-only" lists, reads and calls the
 * tools annotated readOnlyHint (creating, deleting, deploying and building need a token);
 * "all" is for the conformance fixtures of /mcp/everything, which change nothing that lasts.
 */
const ANONYMOUS: Readonly<Record<string, AnonymousAccess>> = {
  everything: "all",
  analytics: "read-only",
  notes: "read-only",
  ops: "read-only",
};

const apps = Object.entries(servers).map(([name, server]) => ({
  name,
  // One MCP_POLICY serves every endpoint: a rule names a tool the same way here and on the hub.
  app: mcpApp(server, {
    authenticate,
    durable,
    anonymous: ANONYMOUS[name] ?? "none",
    policy: accessPolicy({ names: hubNamesOf(name) }),
  }),
}));
for (const { name, app: served } of apps) app.route(`/mcp/${name}`, served);

// The hub: every server above (called in-process), plus remote servers from HUB_UPSTREAMS.
const hub = hubServer({
  upstreams: (env) => [
    ...apps,
    ...remoteUpstreams(readVar(env, "HUB_UPSTREAMS"), (message) => console.warn(message)),
  ],
});
app.route(
  "/mcp",
  mcpApp(hub, {
    authenticate,
    anonymous: "read-only",
    policy: accessPolicy({ names: bareNamesOf() }),
    durable: (env) => durableObjects({ rendezvous: env.MCP_RENDEZVOUS, limits: env.MCP_LIMITS }),
  }),
);

// The endpoints above, for the playground (names and descriptions only).
app.get("/api/servers", (c) => {
  const remote = remoteUpstreams(readVar(c.env, "HUB_UPSTREAMS"), () => {});
  const body = directory(
    "/mcp",
    servers,
    remote.map(({ name }) => name),
  );
  const tokens = publishedDevTokens(readVar(c.env, "API_TOKENS"), c.req.raw);
  return c.json(tokens ? { ...body, devTokens: tokens } : body, 200, {
    "Cache-Control": "no-store",
  });
});

// The playground's Client ID Metadata Document, naming its callback on this origin.
app.get(PLAYGROUND_CLIENT_PATH, (c) =>
  c.json(playgroundClient(new URL(c.req.url).origin), 200, {
    "Cache-Control": "public, max-age=3600",
  }),
);

// The page's relay to servers that do not allow it with CORS (README, "Servers without CORS").
app.route("/relay", relayApp({ authenticate, limits: (env) => limitsOver(env.MCP_LIMITS) }));

// A wrong server name is an HTTP 404, not a JSON-RPC error: there is no MCP endpoint here.
app.all("/mcp/*", (c) =>
  c.text(
    `No MCP server at ${new URL(c.req.url).pathname}. Servers: /mcp (the hub), ${apps.map(({ name }) => `/mcp/${name}`).join(", ")}\n`,
    404,
  ),
);

export default app;
export { Limiter, ListenBus, Rendezvous, TaskObject } from "./durable/index.ts";
