import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";

// The smallest useful SDK Worker: one tool, for the bundle-size comparison.
const handler = createMcpHandler(() => {
  const server = new McpServer({ name: "hello", version: "1.0.0" });
  server.registerTool(
    "greet",
    { description: "Greets someone by name", inputSchema: z.object({ name: z.string() }) },
    ({ name }) => ({ content: [{ type: "text", text: `Hello, ${name}!` }] }),
  );
  return server;
});

export default { fetch: (request: Request): Promise<Response> => handler.fetch(request) };
