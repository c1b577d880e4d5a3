import { Hono } from "hono";
import { bearerTokens } from "./auth/bearer.ts";
import { mcpApp } from "./mcp/app.ts";
import { servers } from "./servers/index.ts";

const app = new Hono<{ Bindings: Cloudflare.Env }>();

// Callers may present a bearer token from API_TOKENS; without one they are anonymous.
const authenticate = bearerTokens({ variable: "API_TOKENS" });

const durable = (env: Cloudflare.Env) => ({
  rendezvous: env.MCP_RENDEZVOUS,
  bus: env.MCP_BUS,
  tasks: env.MCP_TASKS,
});

for (const [name, server] of Object.entries(servers)) {
  app.route(`/mcp/${name}`, mcpApp(server, { authenticate, durable }));
}

// A wrong server name is an HTTP 404, not a JSON-RPC error: there is no MCP endpoint here.
app.all("/mcp/*", (c) =>
  c.text(
    `No MCP server at ${new URL(c.req.url).pathname}. Servers: ${Object.keys(servers)
      .map((n) => `/mcp/${n}`)
      .join(", ")}\n`,
    404,
  ),
);

export default app;
export { ListenBus, Rendezvous, TaskObject } from "./durable/index.ts";
