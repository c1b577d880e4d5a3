import { Hono } from "hono";
import { bearerTokens } from "./auth/bearer.ts";
import { durableObjects } from "./durable/index.ts";
import { hubServer } from "./hub/hub-server.ts";
import { remoteUpstreams } from "./hub/upstreams.ts";
import { mcpApp } from "./mcp/hono.ts";
import { readVar } from "./env-vars.ts";
import { directory } from "./servers/directory.ts";
import { servers } from "./servers/index.ts";

// Not strict: /mcp/ and /mcp/notes/ are the same endpoints as /mcp and /mcp/notes.
const app = new Hono<{ Bindings: Cloudflare.Env }>({ strict: false });

// Callers may present a bearer token from API_TOKENS; without one they are anonymous.
const authenticate = bearerTokens({ variable: "API_TOKENS" });
const durable = (env: Cloudflare.Env) =>
  durableObjects({
    rendezvous: env.MCP_RENDEZVOUS,
    bus: env.MCP_BUS,
    tasks: env.MCP_TASKS,
    limits: env.MCP_LIMITS,
  });

const apps = Object.entries(servers).map(([name, server]) => ({
  name,
  app: mcpApp(server, { authenticate, durable }),
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
  return c.json(body, 200, { "Cache-Control": "no-store" });
});

// A wrong server name is an HTTP 404, not a JSON-RPC error: there is no MCP endpoint here.
app.all("/mcp/*", (c) =>
  c.text(
    `No MCP server at ${new URL(c.req.url).pathname}. Servers: /mcp (the hub), ${apps.map(({ name }) => `/mcp/${name}`).join(", ")}\n`,
    404,
  ),
);

export default app;
export { Limiter, ListenBus, Rendezvous, TaskObject } from "./durable/index.ts";
