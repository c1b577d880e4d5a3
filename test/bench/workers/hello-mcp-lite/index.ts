import { McpServer, StreamableHttpTransport } from "mcp-lite";
import * as z from "zod/mini";

// The smallest useful mcp-lite Worker (2025 era only): one tool written with zod/mini.
const server = new McpServer({
  name: "hello",
  version: "1.0.0",
  schemaAdapter: (schema) => z.toJSONSchema(schema as z.ZodMiniType),
});
server.tool("greet", {
  description: "Greets someone by name",
  inputSchema: z.object({ name: z.string() }),
  handler: ({ name }) => ({ content: [{ type: "text", text: `Hello, ${name}!` }] }),
});
const handler = new StreamableHttpTransport().bind(server);

export default { fetch: (request: Request): Promise<Response> => handler(request) };
