import { mcpHandler } from "edgemcp/server";
import { signIn } from "edgemcp/oauth";
import { server } from "./server.ts";

// Sign-in: this Worker is the OAuth 2.1 authorization server of its own MCP endpoint (tokens
// and grants in the KV namespace bound as OAUTH_KV). Hosts find it from the endpoint's 401.
const auth = signIn({
  title: "{{name}}",
  endpoints: [{ path: "/mcp", name: "{{name}}", baseline: ["mcp"] }],
  // Every scope a token may carry, in the words the consent page shows.
  scopes: { mcp: "Use {{name}} as you" },
  // The development login: pick a user, no password. Offered on localhost only (or when
  // OAUTH_DEV_LOGIN is "on"); deployed, people sign in through OAUTH_UPSTREAM (README.md).
  demoUsers: [{ id: "dev", name: "Developer" }],
});

// Every request needs a token from the sign-in; tools see the person as ctx.caller.
const mcp = mcpHandler(server, { authenticate: auth.authenticate() });

export default {
  fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === "/mcp") return mcp.fetch(request, env, ctx);
    // The sign-in page, tokens, registration, and the metadata hosts discover them with.
    if (auth.serves(url.pathname)) return auth.fetch(request, env, ctx);
    return new Response(`This is an MCP server. Connect your client to ${url.origin}/mcp\n`, {
      status: 404,
    });
  },
} satisfies ExportedHandler<Env>;
