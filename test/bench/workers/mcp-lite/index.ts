import { McpServer, StreamableHttpTransport } from "mcp-lite";
import * as z from "zod";
import {
  BIG_TEXT,
  generatedToolName,
  RESOURCE_TEXT,
  RESOURCE_URI,
  toolCount,
  type BenchEnv,
} from "../fixtures.ts";
import { EchoInput, NoInput, NoopInput, ProgressInput } from "../schemas.ts";

// mcp-lite 0.10 (2025 era only), stateless: no session adapter, one server per isolate.
function buildServer(n: number): McpServer {
  const server = new McpServer({
    name: "bench-mcp-lite",
    version: "1.0.0",
    schemaAdapter: (schema) => z.toJSONSchema(schema as z.ZodType),
  });
  server.tool("echo", {
    description: "Echoes text",
    inputSchema: EchoInput,
    handler: ({ text }) => ({ content: [{ type: "text", text }] }),
  });
  server.tool("progress", {
    description: "Sends progress notifications, then a text",
    inputSchema: ProgressInput,
    handler: async ({ steps }, ctx) => {
      for (let i = 1; i <= steps; i++) await ctx.progress?.({ progress: i, total: steps });
      return { content: [{ type: "text", text: `did ${steps}` }] };
    },
  });
  server.tool("big", {
    description: "Returns 1 MiB of text",
    inputSchema: NoInput,
    handler: () => ({ content: [{ type: "text", text: BIG_TEXT }] }),
  });
  for (let i = 0; i < n; i++) {
    server.tool(generatedToolName(i), {
      description: `Generated no-op tool ${i}`,
      inputSchema: NoopInput,
      handler: () => ({ content: [{ type: "text", text: "ok" }] }),
    });
  }
  server.resource(RESOURCE_URI, { name: "readme", mimeType: "text/plain" }, async (uri) => ({
    contents: [{ type: "text", uri: uri.href, mimeType: "text/plain", text: RESOURCE_TEXT }],
  }));
  return server;
}

let handler: ((request: Request) => Promise<Response>) | undefined;

export default {
  fetch(request: Request, env: BenchEnv): Promise<Response> {
    handler ??= new StreamableHttpTransport().bind(buildServer(toolCount(env)));
    return handler(request);
  },
};
