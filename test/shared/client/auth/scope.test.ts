import { describe, expect, it } from "vitest";
import { withAuth } from "../../../../shared/client/auth/index.ts";
import { MCP, REDIRECT, world, type World } from "./world.ts";

function signIn(w: World, scope: string | undefined) {
  const { fetch, session } = withAuth(MCP, {
    redirectUri: REDIRECT,
    interact: w.interact,
    fetch: w.fetch,
    ...(scope === undefined ? {} : { scope }),
  });
  return { session, call: () => fetch(MCP, { method: "POST", body: "{}" }) };
}

const asked = (w: World) => w.authorizations.map((url) => url.searchParams.get("scope"));

describe("the scopes a caller asks for", () => {
  it("replace those the resource metadata names, on a 401", async () => {
    const w = world();
    expect((await signIn(w, "mcp:read mcp:admin").call()).status).toBe(200);
    expect(asked(w)).toEqual(["mcp:read mcp:admin"]);
  });

  it("replace those the server names when signing in ahead", async () => {
    const w = world();
    const { session } = signIn(w, "mcp:admin");
    expect(await session.signInAhead()).toBe(true);
    expect(asked(w)).toEqual(["mcp:admin"]);
  });

  it("are still added to by a step-up, with the scopes the 403 names", async () => {
    const w = world();
    w.requiredScope = "mcp:read mcp:write";
    expect((await signIn(w, "mcp:admin").call()).status).toBe(200);
    expect(asked(w)).toEqual(["mcp:admin", "mcp:admin mcp:read mcp:write"]);
  });

  it("default to the resource metadata's when none are given", async () => {
    const w = world();
    expect((await signIn(w, undefined).call()).status).toBe(200);
    expect(asked(w)).toEqual(["mcp:read"]);
  });
});
