import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { fixtureEnv as env } from "./fixture-env.ts";
import type { McpAppOptions, Served } from "../../worker/mcp/index.ts";
import { mcpApp } from "../../worker/mcp/hono.ts";
import { readReply, type Reply } from "../support/reply.ts";

/** Serves a server defined inside a test, the way the Worker would, and reads replies. */
export function serve(
  server: Served,
  options: McpAppOptions = {},
  bindings: Partial<Record<keyof Cloudflare.Env, unknown>> & Record<string, unknown> = {},
) {
  const app = mcpApp(server, options);
  const fetch = async (request: Request): Promise<Response> => {
    const ctx = createExecutionContext();
    // The app serves its root path; tests build requests for /mcp/<name>.
    const response = await app.fetch(
      new Request(new URL("/", request.url), request),
      { ...env, ...bindings },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return response;
  };
  return {
    fetch,
    async send(request: Request, method: string, era: "2026" | "2025" = "2026"): Promise<Reply> {
      return readReply(await fetch(request), method, era);
    },
  };
}
