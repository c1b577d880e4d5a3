import {
  acceptedContent,
  createMcpHandler,
  inputRequired,
  McpServer,
} from "@modelcontextprotocol/server";
import * as z from "zod";
import { serveFetch } from "./edge-client-http.ts";

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
  server.registerTool(
    "echo",
    { description: "Echoes text", inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  server.registerTool(
    "slow",
    {
      description: "Counts to steps, one per delayMs, with progress; stops when cancelled",
      inputSchema: z.object({
        steps: z.number().int().min(1),
        delayMs: z.number().int().min(0),
        label: z.string().default("default"),
      }),
    },
    async ({ steps, delayMs, label }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      aborts.delete(label);
      for (let step = 1; step <= steps; step++) {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (ctx.mcpReq.signal.aborted) {
          aborts.set(label, step);
          return { content: [{ type: "text", text: `aborted at step ${step}` }] };
        }
        if (token !== undefined) {
          await ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken: token, progress: step, total: steps },
          });
        }
      }
      return { content: [{ type: "text", text: `counted to ${steps}` }] };
    },
  );
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
  const Confirm = z.object({ ok: z.boolean() });
  server.registerTool(
    "confirm",
    { description: "Asks the user to confirm", inputSchema: z.object({ what: z.string() }) },
    ({ what }, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, "confirm", Confirm);
      if (answer === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({ message: `Do ${what}?`, requestedSchema: Confirm }),
          },
          requestState: EXT_REQUEST_STATE,
        });
      }
      return { content: [{ type: "text", text: answer.ok ? `did ${what}` : "kept" }] };
    },
  );
  server.registerPrompt(
    "greet",
    { description: "Greets someone", argsSchema: z.object({ name: z.string() }) },
    ({ name }) => ({ messages: [{ role: "user", content: { type: "text", text: `hi ${name}` } }] }),
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
