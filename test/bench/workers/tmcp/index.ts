import { ZodJsonSchemaAdapter } from "@tmcp/adapter-zod";
import { HttpTransport } from "@tmcp/transport-http";
import { McpServer } from "tmcp";
import {
  BIG_TEXT,
  generatedToolName,
  RESOURCE_TEXT,
  RESOURCE_URI,
  toolCount,
  type BenchEnv,
} from "../fixtures.ts";
import { EchoInput, NoInput, NoopInput, ProgressInput } from "../schemas.ts";

// tmcp 1.20 with @tmcp/transport-http 0.9: sessionless 2026-07-28 requests, and 2025 clients
// through initialize sessions kept in memory (one isolate here, so they last).
function buildServer(n: number) {
  const server = new McpServer(
    { name: "bench-tmcp", version: "1.0.0", description: "The bench's tmcp server" },
    { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {}, resources: {} } },
  );
  server.tool({ name: "echo", description: "Echoes text", schema: EchoInput }, ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  server.tool(
    {
      name: "progress",
      description: "Sends progress notifications, then a text",
      schema: ProgressInput,
    },
    ({ steps }) => {
      for (let i = 1; i <= steps; i++) server.progress(i, steps);
      return { content: [{ type: "text", text: `did ${steps}` }] };
    },
  );
  server.tool({ name: "big", description: "Returns 1 MiB of text", schema: NoInput }, () => ({
    content: [{ type: "text", text: BIG_TEXT }],
  }));
  for (let i = 0; i < n; i++) {
    server.tool(
      { name: generatedToolName(i), description: `Generated no-op tool ${i}`, schema: NoopInput },
      () => ({ content: [{ type: "text", text: "ok" }] }),
    );
  }
  server.resource(
    { name: "readme", description: "A small resource", uri: RESOURCE_URI },
    (uri) => ({ contents: [{ uri, mimeType: "text/plain", text: RESOURCE_TEXT }] }),
  );
  return server;
}

let transport: HttpTransport | undefined;

export default {
  async fetch(request: Request, env: BenchEnv): Promise<Response> {
    transport ??= new HttpTransport(buildServer(toolCount(env)), { path: null });
    return (await transport.respond(request)) ?? new Response("Not found", { status: 404 });
  },
};
