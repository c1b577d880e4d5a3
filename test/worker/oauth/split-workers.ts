import * as z from "zod";
import { signIn } from "../../../worker/oauth/index.ts";
import { defineServer, mcpHandler, tool } from "../../../worker/mcp/index.ts";

// Two Workers as an operator who splits them deploys them: "mcp" serves the MCP endpoints and
// reaches "auth", the authorization server, through the service binding SIGN_IN; both bind the
// same KV namespace as OAUTH_KV. Each is bundled from its own export below (test/interop/oauth/split.test.ts).
const shared = {
  endpoints: [
    { path: "/mcp", name: "the MCP Worker", baseline: ["mcp"] },
    { path: "/mcp/other", name: "another endpoint", baseline: ["mcp"] },
  ],
  scopes: { mcp: "Use the MCP Worker as you" },
};

const server = defineServer({
  name: "split",
  version: "0.1.0",
  tools: [
    tool({
      name: "whoami",
      description: "Says who the caller is.",
      input: z.object({}),
      run: (_input, ctx) => `signed in as ${ctx.caller?.subject ?? "nobody"}`,
    }),
  ],
});

const remote = signIn({ ...shared, authorizationServerBinding: "SIGN_IN" });
const handlers = Object.fromEntries(
  shared.endpoints.map(({ path }) => [
    path,
    mcpHandler(server, { authenticate: remote.authenticate() }),
  ]),
);

/** The MCP Worker: its endpoints, their metadata, and the sign-in paths handed to "auth". */
export const mcpWorker = {
  fetch(request, env, ctx) {
    const url = new URL(request.url);
    const handler = handlers[url.pathname];
    if (handler) return handler.fetch(request, env, ctx);
    if (remote.serves(url.pathname)) return remote.fetch(request, env, ctx);
    return new Response("Not found\n", { status: 404 });
  },
} satisfies ExportedHandler<Cloudflare.Env>;

// The users live here only: were the MCP Worker to serve the sign-in page itself, it would have
// no way to sign anyone in.
const local = signIn({
  ...shared,
  title: "split sign-in",
  demoUsers: [{ id: "alice", name: "Alice" }],
});

/** The authorization server's Worker: only sign-in, reached through the binding. */
export const authWorker = {
  fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (local.serves(url.pathname)) return local.fetch(request, env, ctx);
    return new Response("Not found\n", { status: 404 });
  },
} satisfies ExportedHandler<Cloudflare.Env>;
