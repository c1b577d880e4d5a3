import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { serveFetch } from "./http.ts";
import { registerCommonV2 } from "./sdk-v2-tools.ts";

/** What the external server's handlers saw cancelled: label → the step it stopped at. */
type Aborts = Map<string, number>;

export const EXT_RESOURCE_URI = "ext://about";
/** The plain requestState the external server's confirm tool hands out. */
export const EXT_REQUEST_STATE = "asked-once";

function extServer(aborts: Aborts): McpServer {
  const server = new McpServer(
    { name: "sdk-upstream", version: "2.4.0" },
    { capabilities: { tools: {}, prompts: {}, resources: {} } },
  );
  registerCommonV2(server, {
    requestState: EXT_REQUEST_STATE,
    onStart: (label) => aborts.delete(label),
    onAbort: (label, step) => aborts.set(label, step),
  });
  server.registerTool(
    "abort_status",
    {
      description: "Tells whether the last slow call with this label was cancelled",
      inputSchema: z.object({ label: z.string() }),
    },
    ({ label }) => {
      const step = aborts.get(label);
      const text =
        step === undefined ? `not aborted: ${label}` : `aborted: ${label} at step ${step}`;
      return { content: [{ type: "text", text }] };
    },
  );
  server.registerResource("about", EXT_RESOURCE_URI, { mimeType: "text/plain" }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "an SDK-built upstream" }],
  }));
  return server;
}

/**
 * An external MCP server built with @modelcontextprotocol/server 2.4.0 (createMcpHandler,
 * stateless, 2026-07-28) on loopback, for the hub to aggregate as a remote upstream.
 */
export async function startSdkUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const aborts: Aborts = new Map();
  const handler = createMcpHandler(() => extServer(aborts));
  const server = await serveFetch((request) => handler.fetch(request));
  return {
    url: `${server.origin}/mcp`,
    close: async () => {
      await server.close();
      await handler.close();
    },
  };
}
