import { signIn } from "../oauth/index.ts";
import { upstreamFromEnv } from "../oauth/upstream-env.ts";
import { servers } from "./index.ts";

/**
 * This Worker's sign-in: every MCP endpoint is a resource of its authorization server. A token
 * always carries `mcp`, which the writes of the notes and ops servers need from a signed-in
 * caller; deleting a note and deploying a release each need a scope of their own on top
 * (`MCP_POLICY` in wrangler.toml), which a client gets by stepping up.
 */
export const demoSignIn = signIn(
  {
    title: "edgemcp",
    endpoints: [
      { path: "/mcp", name: "the edgemcp hub", baseline: ["mcp"] },
      ...Object.entries(servers).map(([name, server]) => ({
        path: `/mcp/${name}`,
        name: server.definition.title ?? name,
        baseline: ["mcp"],
      })),
    ],
    scopes: {
      mcp: "Act as you on these servers: create and edit notes, run builds",
      "notes:delete": "Delete your notes",
      "ops:deploy": "Deploy releases",
    },
    demoUsers: [
      { id: "alice", name: "Alice (demo user)" },
      { id: "bob", name: "Bob (demo user)" },
    ],
  },
  upstreamFromEnv,
);
