import { ZodJsonSchemaAdapter } from "@tmcp/adapter-zod";
import { HttpTransport } from "@tmcp/transport-http";
import { McpServer } from "tmcp";
import * as z from "zod";

// The smallest useful tmcp Worker: one tool. Its zod adapter imports classic zod itself.
const server = new McpServer(
  { name: "hello", version: "1.0.0", description: "Greets" },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {} } },
);
server.tool(
  {
    name: "greet",
    description: "Greets someone by name",
    schema: z.object({ name: z.string() }),
  },
  ({ name }) => ({ content: [{ type: "text", text: `Hello, ${name}!` }] }),
);
const transport = new HttpTransport(server, { path: null });

export default {
  fetch: async (request: Request): Promise<Response> =>
    (await transport.respond(request)) ?? new Response("Not found", { status: 404 }),
};
