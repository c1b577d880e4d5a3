import { mcpHandler } from "edgemcp/server";
import { server } from "./server.ts";

// The Worker: the MCP server at /mcp, and a pointer to it everywhere else.
const mcp = mcpHandler(server);

export default {
  fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === "/mcp") return mcp.fetch(request, env, ctx);
    return new Response(`This is an MCP server. Connect your client to ${url.origin}/mcp\n`, {
      status: 404,
    });
  },
} satisfies ExportedHandler<Env>;
