import { Hono } from "hono";
import { mcpApp } from "./mcp/app.ts";
import { servers } from "./servers/index.ts";

const app = new Hono<{ Bindings: Cloudflare.Env }>();

for (const [name, server] of Object.entries(servers)) {
  app.route(`/mcp/${name}`, mcpApp(server));
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
