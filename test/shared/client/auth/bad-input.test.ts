import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { AuthError, withAuth, type AuthEvent } from "../../../../shared/client/auth/index.ts";
import { ISSUER, MCP, REDIRECT, world, type World } from "./world.ts";

/** Signs in against a world made hostile; the error, and every event and message seen. */
async function failure(w: World): Promise<{ error: AuthError; seen: string }> {
  const events: AuthEvent[] = [];
  const { fetch } = withAuth(MCP, {
    redirectUri: REDIRECT,
    interact: w.interact,
    fetch: w.fetch,
    onEvent: (e) => events.push(e),
  });
  const error = await fetch(MCP, { method: "POST", body: "{}" }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AuthError)) throw new Error(`expected an AuthError, got ${String(error)}`);
  return { error, seen: `${inspect(error, { depth: 8 })}\n${JSON.stringify(events)}` };
}

describe("a hostile or broken authorization server gets a clear error", () => {
  it("refuses metadata that is not JSON", async () => {
    const w = world();
    w.metadataBody = "<html>login</html>";
    const { error } = await failure(w);
    expect(error.step).toBe("server-metadata");
    expect(error.message).toContain(
      `metadata at ${ISSUER}/.well-known/oauth-authorization-server is unusable: it is not JSON`,
    );
  });

  it("refuses metadata larger than 256 KiB", async () => {
    const w = world();
    w.metadataBody = JSON.stringify({ ...w.metadata, padding: "x".repeat(300 * 1024) });
    const { error } = await failure(w);
    expect(error.message).toContain("is larger than 262144 bytes");
  });

  it("refuses metadata whose issuer differs from the one it was fetched for, even by a slash", async () => {
    const w = world();
    w.metadata.issuer = `${ISSUER}/`;
    const { error } = await failure(w);
    expect(error.rule).toBe("RFC 8414 §3.3");
    expect(error.message).toContain(
      "The metadata's issuer is `https://auth.example/` but it was fetched for `https://auth.example`",
    );
    expect(w.requests).not.toContain(`POST ${ISSUER}/register`);
  });

  it("refuses a server that does not list PKCE S256", async () => {
    const w = world();
    w.metadata.code_challenge_methods_supported = ["plain"];
    const { error } = await failure(w);
    expect(error.message).toContain("does not list S256 in code_challenge_methods_supported");
    expect(w.authorizations).toHaveLength(0);
  });

  it("refuses a callback whose iss differs from the issuer", async () => {
    const w = world();
    const honest = w.callback;
    w.callback = (request) => {
      const back = honest(request);
      back.searchParams.set("iss", "https://evil.example");
      return back;
    };
    const { error } = await failure(w);
    expect(error.rule).toBe("RFC 9207 §2.4");
    expect(error.message).toContain(
      "The callback's iss is `https://evil.example` but the sign-in went to `https://auth.example`",
    );
    expect(w.tokenForms).toHaveLength(0);
  });

  it("refuses a callback without iss when the server advertises it", async () => {
    const w = world();
    const honest = w.callback;
    w.callback = (request) => {
      const back = honest(request);
      back.searchParams.delete("iss");
      return back;
    };
    expect((await failure(w)).error.message).toContain("The callback has no iss parameter");
  });

  it("refuses a callback whose state does not match", async () => {
    const w = world();
    const honest = w.callback;
    w.callback = (request) => {
      const back = honest(request);
      back.searchParams.set("state", "forged");
      return back;
    };
    const { error } = await failure(w);
    expect(error.message).toContain("The callback's state does not match the one sent");
    expect(w.tokenForms).toHaveLength(0);
  });

  it("refuses a redirect to another origin than the redirect URI", async () => {
    const w = world();
    const honest = w.callback;
    w.callback = (request) => new URL(honest(request).search, "https://elsewhere.example/callback");
    const { error } = await failure(w);
    expect(error.message).toContain(
      "sent the browser to https://elsewhere.example/callback, not to the redirect URI",
    );
  });

  it("refuses a token response without access_token", async () => {
    const w = world();
    w.token = () => ({ status: 200, body: { token_type: "Bearer" } });
    const { error } = await failure(w);
    expect(error.step).toBe("token");
    expect(error.message).toContain(`The token response from ${ISSUER}/token has no access_token`);
  });

  it("says what the token endpoint refused", async () => {
    const w = world();
    w.token = () => ({
      status: 400,
      body: { error: "invalid_grant", error_description: "code expired" },
    });
    expect((await failure(w)).error.message).toContain(
      'answered HTTP 400 "invalid_grant": code expired',
    );
  });

  it("stops an endless step-up loop after two more sign-ins", async () => {
    const w = world();
    w.requiredScope = "mcp:admin";
    w.token = (form) => {
      const token = `access-${w.issued.size}-secret`;
      w.issued.set(token, form.get("scope") === null ? "mcp:read" : "mcp:read");
      return {
        status: 200,
        body: { access_token: token, token_type: "Bearer", scope: "mcp:read" },
      };
    };
    const { error } = await failure(w);
    expect(error.message).toContain(
      'still answers 403 insufficient_scope after 2 sign-ins for more scopes (it asks for "mcp:admin")',
    );
    expect(w.authorizations).toHaveLength(3);
  });

  it("refuses a registration answer that changes the redirect URIs", async () => {
    const w = world();
    w.registration = () => ({ client_id: "c", redirect_uris: ["https://attacker.example/cb"] });
    const { error } = await failure(w);
    expect(error.message).toContain('changed the redirect URIs to ["https://attacker.example/cb"]');
    expect(w.authorizations).toHaveLength(0);
  });

  it("refuses resource metadata that names another resource", async () => {
    const w = world();
    w.prm.resource = "https://evil.example/mcp";
    const { error } = await failure(w);
    expect(error.rule).toBe("RFC 9728 §3.3");
    expect(error.message).toContain(
      'names the resource "https://evil.example/mcp", which is not this server',
    );
  });

  it("refuses to sign in over plain http beyond loopback", async () => {
    const w = world();
    w.prm.authorization_servers = ["http://auth.example"];
    expect((await failure(w)).error.message).toContain("is not https");
  });

  it("never puts a token, code or secret in an error or an event", async () => {
    const w = world();
    w.registration = (body) => ({
      client_id: "c",
      client_secret: "client-secret-value",
      client_secret_expires_at: 0,
      redirect_uris: body.redirect_uris,
      token_endpoint_auth_method: "client_secret_post",
    });
    w.token = () => ({
      status: 200,
      body: { token_type: "Bearer", refresh_token: "refresh-secret-value" },
    });
    const { seen } = await failure(w);
    for (const secret of ["client-secret-value", "refresh-secret-value", "code-secret"])
      expect(seen).not.toContain(secret);
  });
});
