import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import {
  BIG_TEXT,
  generatedToolName,
  RESOURCE_TEXT,
  RESOURCE_URI,
  toolCount,
  type BenchEnv,
} from "../fixtures.ts";
import { EchoInput, NoInput, NoopInput, ProgressInput } from "../schemas.ts";

// The SDK's stateless pattern: a fresh McpServer per request, built by this factory.
function buildServer(n: number): McpServer {
  const server = new McpServer(
    { name: "bench-sdk", version: "1.0.0" },
    { capabilities: { tools: {}, resources: {} } },
  );
  server.registerTool(
    "echo",
    { description: "Echoes text", inputSchema: EchoInput },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  server.registerTool(
    "progress",
    { description: "Sends progress notifications, then a text", inputSchema: ProgressInput },
    async ({ steps }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        if (progressToken !== undefined)
          await ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken, progress: i, total: steps },
          });
      }
      return { content: [{ type: "text", text: `did ${steps}` }] };
    },
  );
  server.registerTool(
    "big",
    { description: "Returns 1 MiB of text", inputSchema: NoInput },
    () => ({ content: [{ type: "text", text: BIG_TEXT }] }),
  );
  for (let i = 0; i < n; i++) {
    server.registerTool(
      generatedToolName(i),
      { description: `Generated no-op tool ${i}`, inputSchema: NoopInput },
      () => ({ content: [{ type: "text", text: "ok" }] }),
    );
  }
  server.registerResource("readme", RESOURCE_URI, { mimeType: "text/plain" }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: RESOURCE_TEXT }],
  }));
  return server;
}

let handler: ReturnType<typeof createMcpHandler> | undefined;

export default {
  fetch(request: Request, env: BenchEnv): Promise<Response> {
    const n = toolCount(env);
    handler ??= createMcpHandler(() => buildServer(n));
    return handler.fetch(request);
  },
};
