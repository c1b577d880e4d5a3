import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { accessPolicy } from "../../../worker/auth/policy.ts";
import { fixtureEnv as env } from "../fixture-env.ts";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { defineServer, tool } from "../../../worker/mcp/index.ts";
import { mcpApp } from "../../../worker/mcp/hono.ts";
import { signIn } from "../../../worker/oauth/index.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { readReply } from "../../support/reply.ts";
import { accessToken, Browser, ORIGIN } from "./browser.ts";

// A Worker of a library user: one server whose tool reports the caller it sees.
const whoami = defineServer({
  name: "whoami",
  version: "1.0.0",
  tools: [
    tool({
      name: "whoami",
      annotations: { readOnlyHint: true },
      run: (_args, context) => JSON.stringify(context.caller ?? null),
    }),
    tool({ name: "admin_reset", run: () => "reset" }),
  ],
});
const auth = signIn({
  endpoints: [{ path: "/mcp/notes", name: "Who am I", baseline: ["mcp"] }],
  scopes: { mcp: "Know who you are", admin: "Reset everything" },
  demoUsers: [{ id: "carol", name: "Carol", roles: ["editor"] }],
});
const app = new Hono<{ Bindings: Cloudflare.Env }>();
for (const path of auth.paths)
  app.all(path, (c) => auth.fetch(c.req.raw, c.env, c.executionCtx as ExecutionContext));
app.route(
  "/mcp/notes",
  mcpApp(whoami, {
    authenticate: auth.authenticate(),
    anonymous: "read-only",
    policy: accessPolicy({
      rules: [
        { who: "scope:admin", names: ["admin_*"] },
        { who: "authenticated", names: ["admin_*"], effect: "deny" },
      ],
    }),
  }),
);
const send = async (request: Request) => {
  const ctx = createExecutionContext();
  const response = await app.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
};
const call = (name: string, token: string) =>
  mcpRequest(
    "tools/call",
    { name, arguments: {} },
    { server: "notes", headers: { Authorization: `Bearer ${token}` } },
  );

describe("signIn() around a library user's server", () => {
  it("hands the tool the signed-in user as its caller: subject, scopes, roles and props", async () => {
    const { access } = await accessToken({ user: "carol" }, new Browser(send));
    const reply = await readReply(await send(call("whoami", access)), "tools/call");
    const caller = JSON.parse(String(reply.final?.result?.content?.[0]?.text));
    expect(caller).toMatchObject({
      subject: "carol",
      scopes: ["mcp"],
      roles: ["editor"],
      props: { name: "Carol", roles: ["editor"], login: "development" },
      credential: `Bearer ${access}`,
    });
  });

  it("applies the policy's scope rule: 403 naming the scope, then allowed once granted", async () => {
    const { access } = await accessToken({ user: "carol" }, new Browser(send));
    const refused = await send(call("admin_reset", access));
    expect(refused.status).toBe(403);
    expect(refused.headers.get("WWW-Authenticate")).toContain('scope="mcp admin"');
    const stepped = await accessToken({ user: "carol", scope: "mcp admin" }, new Browser(send));
    const reply = await readReply(await send(call("admin_reset", stepped.access)), "tools/call");
    expect(reply.final?.result?.content?.[0]?.text).toBe("reset");
  });

  it("answers 500 naming the binding when OAUTH_KV is missing", async () => {
    const ctx = createExecutionContext();
    const response = await app.fetch(
      new Request(`${ORIGIN}/.well-known/oauth-authorization-server`),
      { ...env, OAUTH_KV: undefined },
      ctx,
    );
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("OAUTH_KV");
  });

  it("answers 500 naming the service binding when the authorization server's Worker is not bound", async () => {
    const split = signIn({
      endpoints: [{ path: "/mcp/notes", name: "Who am I" }],
      scopes: {},
      authorizationServerBinding: "SIGN_IN",
    });
    const ctx = createExecutionContext();
    const response = await split.fetch(new Request(`${ORIGIN}/authorize`), env, ctx);
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("service binding named SIGN_IN");
  });

  it("refuses an authorizationServerBinding that cannot be a binding's name", () => {
    expect(() =>
      signIn({ endpoints: [], scopes: {}, authorizationServerBinding: "sign-in worker" }),
    ).toThrow(/authorizationServerBinding names a binding/);
  });

  it("serves each endpoint's resource metadata naming itself, for a Worker without Hono (serves())", async () => {
    expect(
      ["/authorize", "/oauth/token", "/.well-known/oauth-authorization-server"].map(auth.serves),
    ).toEqual([true, true, true]);
    expect(auth.serves("/.well-known/oauth-protected-resource/mcp/notes")).toBe(true);
    expect(auth.serves("/.well-known/oauth-protected-resource/mcp/other")).toBe(false);
    expect(auth.serves("/mcp/notes")).toBe(false);
    const ctx = createExecutionContext();
    const response = await auth.fetch(
      new Request(`${ORIGIN}/.well-known/oauth-protected-resource/mcp/notes`),
      env,
      ctx,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(await response.json()).toEqual({
      resource: `${ORIGIN}/mcp/notes`,
      authorization_servers: [ORIGIN],
      bearer_methods_supported: ["header"],
      scopes_supported: ["mcp"],
      resource_name: "Who am I",
    });
  });

  it("routes each endpoint's resource metadata through `paths`, for a Worker with Hono", async () => {
    // The 401 a client gets names this document; a Worker that routes auth.paths must serve it.
    const challenge = await send(
      mcpRequest("tools/call", { name: "admin_reset", arguments: {} }, { server: "notes" }),
    );
    const named = /resource_metadata="([^"]+)"/.exec(
      challenge.headers.get("WWW-Authenticate") ?? "",
    )?.[1];
    expect(named).toBe(`${ORIGIN}/.well-known/oauth-protected-resource/mcp/notes`);
    const response = await send(new Request(named!));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      resource: `${ORIGIN}/mcp/notes`,
      authorization_servers: [ORIGIN],
    });
    const other = await send(
      new Request(`${ORIGIN}/.well-known/oauth-protected-resource/mcp/other`),
    );
    expect(other.status).toBe(404);
  });
});
