// `edgemcp/hono`: the endpoint as a Hono app. Kept apart from `edgemcp/server` so a Worker that
// exports `mcpHandler` carries no Hono.
import { Hono } from "hono";
import type { Served } from "./server/server.ts";
import { mcpHandler, type McpAppOptions } from "./handler.ts";
import { inProcessEntry, registerEntry } from "./request/in-process.ts";
import { openerOf, registerOpener } from "./runtime.ts";

/**
 * The same endpoint as a Hono app serving its root path: mount it with
 * `app.route("/mcp", mcpApp(server))`, or export it as the Worker itself.
 */
export function mcpApp(
  server: Served,
  options: McpAppOptions = {},
): Hono<{ Bindings: Cloudflare.Env }> {
  const handler = mcpHandler(server, options);
  const app = new Hono<{ Bindings: Cloudflare.Env }>();
  app.all("/", (c) => handler.fetch(c.req.raw, c.env, c.executionCtx));
  // The app adds nothing on the way to the handler, so a proxy of this isolate may skip both.
  const entry = inProcessEntry(handler);
  if (entry) registerEntry(app, entry);
  const opener = openerOf(handler);
  if (opener) registerOpener(app, opener);
  return app;
}
