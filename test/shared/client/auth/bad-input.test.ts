import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuthError, withAuth, type AuthEvent } from "../../../../shared/client/auth/index.ts";
import { SECRETS, startHostile, type Hostile } from "./hostile.ts";

let h: Hostile;
beforeEach(async () => {
  h = await startHostile();
});
afterEach(() => h.close());

/**
 * Signs in against the servers made hostile: the error, the failure as the trace recorded it
 * (its last event), and everything a user could see (the error, its cause, every event).
 */
async function failure(): Promise<{ error: AuthError; failed: AuthEvent; seen: string }> {
  const events: AuthEvent[] = [];
  const { fetch } = withAuth(h.mcp, {
    redirectUri: h.redirectUri,
    interact: h.interact,
    onEvent: (event) => events.push(event),
  });
  const error = await fetch(h.mcp, { method: "POST", body: "{}" }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AuthError)) throw new Error(`expected an AuthError, got ${String(error)}`);
  const failed = events.at(-1);
  if (failed?.status !== "failed") throw new Error(`no failure traced: ${JSON.stringify(events)}`);
  expect(events.filter((event) => event.status === "failed")).toHaveLength(1);
  const seen = `${inspect(error, { depth: 8 })}\n${JSON.stringify(events)}`;
  for (const secret of SECRETS) expect(seen).not.toContain(secret);
  return { error, failed, seen };
}

/** The trace's failure carries the error's step, rule, problem and fix, the fix for the owner. */
function expectTraced(error: AuthError, failed: AuthEvent): void {
  expect(failed).toMatchObject({ step: error.step, rule: error.rule, summary: error.problem });
  expect(failed.fix).toBe(error.fix);
  const fix = error.fix === undefined ? "" : ` ${error.fix}`;
  expect(error.message).toBe(`${error.problem}${fix} (${error.rule})`);
}

describe("a hostile or broken authorization server on loopback gets a clear error and nothing else", () => {
  it("refuses metadata that is not JSON, saying what to serve instead", async () => {
    h.metadataAnswer = (res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<html>Log in</html>");
    const { error, failed } = await failure();
    expectTraced(error, failed);
    expect(failed).toMatchObject({
      step: "server-metadata",
      rule: "RFC 8414 §3.2",
      url: `${h.issuer}/.well-known/oauth-authorization-server`,
      summary: `The authorization server metadata at ${h.issuer}/.well-known/oauth-authorization-server is unusable: it is not JSON (Content-Type: text/html).`,
      fix: "The server's owner must serve its RFC 8414 metadata there: a JSON object with status 200.",
    });
    expect(h.requests).not.toContain("POST /register");
  });

  it("stops reading metadata past 256 KiB, sent without a length", async () => {
    h.metadataAnswer = (res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`{"issuer":"${h.issuer}","padding":"`);
      for (let i = 0; i < 40; i += 1) res.write("x".repeat(16 * 1024));
      res.end('"}');
    };
    const { error, failed } = await failure();
    expectTraced(error, failed);
    expect(failed.rule).toBe("edgemcp limit");
    expect(failed.summary).toContain("is larger than 262144 bytes");
    expect(failed.fix).toContain("must keep its OAuth answers small");
  });

  it("refuses metadata whose issuer differs by a trailing slash, in RFC 8414's words", async () => {
    h.metadata.issuer = `${h.issuer}/`;
    const { error, failed } = await failure();
    expectTraced(error, failed);
    expect(failed.rule).toBe("RFC 8414 §3.3");
    expect(failed.summary).toContain(
      `The metadata's issuer is \`${h.issuer}/\` but it was fetched for \`${h.issuer}\`: RFC 8414 §3.3 requires them to be identical`,
    );
    expect(failed.fix).toBe(
      "The server's owner must make the metadata's issuer and the protected resource metadata's authorization_servers entry the same string, character for character.",
    );
    expect(h.requests).not.toContain("POST /register");
  });

  it("refuses a server that does not list PKCE S256, before any authorization request", async () => {
    h.metadata.code_challenge_methods_supported = ["plain"];
    const { error, failed } = await failure();
    expectTraced(error, failed);
    expect(failed.summary).toContain(
      `${h.issuer} does not list S256 in code_challenge_methods_supported, and MCP clients must refuse to sign in without PKCE`,
    );
    expect(failed.fix).toContain('"code_challenge_methods_supported": ["S256"]');
    expect(h.requests).not.toContain("GET /authorize");
  });

  it("refuses a callback whose iss differs from the issuer (RFC 9207) and sends no token request", async () => {
    const honest = h.redirect;
    h.redirect = (request) => {
      const back = honest(request);
      back.searchParams.set("iss", "http://127.0.0.1:1");
      return back;
    };
    const { error, failed } = await failure();
    expectTraced(error, failed);
    expect(failed).toMatchObject({ step: "callback", rule: "RFC 9207 §2.4" });
    expect(failed.summary).toContain(
      `The callback's iss is \`http://127.0.0.1:1\` but the sign-in went to \`${h.issuer}\`: RFC 9207 §2.4 requires them to be identical`,
    );
    expect(failed.fix).toBe(
      "The server's owner must send as iss its issuer exactly as its metadata names it.",
    );
    expect(h.requests).not.toContain("POST /token");
  });

  it("refuses a callback without iss from a server that advertises it", async () => {
    const honest = h.redirect;
    h.redirect = (request) => {
      const back = honest(request);
      back.searchParams.delete("iss");
      return back;
    };
    const { error, failed } = await failure();
    expectTraced(error, failed);
    expect(failed.summary).toContain("The callback has no iss parameter");
    expect(failed.fix).toContain("must add iss to every authorization response");
  });

  it("refuses a callback whose state does not match and sends no token request", async () => {
    const honest = h.redirect;
    h.redirect = (request) => {
      const back = honest(request);
      back.searchParams.set("state", "forged");
      return back;
    };
    const { error, failed } = await failure();
    expectTraced(error, failed);
    expect(failed).toMatchObject({ step: "callback", rule: "OAuth 2.1 §7.12" });
    expect(failed.summary).toBe(
      "The callback's state does not match the one sent, so it may not answer this sign-in and was refused.",
    );
    expect(failed.fix).toContain("must return the state of the authorization request unchanged");
    expect(h.requests).not.toContain("POST /token");
  });

  it("refuses a redirect to another origin than the redirect URI", async () => {
    const honest = h.redirect;
    h.redirect = (request) => new URL(honest(request).search, "http://127.0.0.1:2/callback");
    const { error, failed } = await failure();
    expectTraced(error, failed);
    expect(failed.summary).toContain(
      `sent the browser to http://127.0.0.1:2/callback, not to the redirect URI ${h.redirectUri}`,
    );
    expect(failed.fix).toBe(
      "The server's owner must redirect to the redirect_uri of the authorization request, exactly as registered.",
    );
    expect(h.requests).not.toContain("POST /token");
  });

  it("refuses a token response without access_token", async () => {
    h.token = () => ({ token_type: "Bearer", refresh_token: "refresh-token-value-never-shown" });
    const { error, failed } = await failure();
    expectTraced(error, failed);
    expect(failed).toMatchObject({
      step: "token",
      rule: "OAuth 2.1 §3.2.3",
      url: `${h.issuer}/token`,
    });
    expect(failed.summary).toBe(`The token response from ${h.issuer}/token has no access_token.`);
    expect(failed.fix).toContain("must return the access_token and its token_type");
  });

  it("stops an endless step-up loop after two more sign-ins", async () => {
    h.alwaysInsufficient = "mcp:admin";
    const { error, failed } = await failure();
    expectTraced(error, failed);
    expect(failed).toMatchObject({
      step: "retry",
      rule: "MCP authorization: step-up",
      httpStatus: 403,
    });
    expect(failed.summary).toContain(
      'still answers 403 insufficient_scope after 2 sign-ins for more scopes (it asks for "mcp:admin"); stopped to avoid an endless loop',
    );
    expect(failed.fix).toContain("must ask only for scopes its authorization server grants");
    expect(h.requests.filter((r) => r === "GET /authorize")).toHaveLength(3);
  });

  it("refuses a registration answer that changes the redirect URIs", async () => {
    h.registration = () => ({ client_id: "c", redirect_uris: ["http://127.0.0.1:3/cb"] });
    const { error, failed } = await failure();
    expectTraced(error, failed);
    expect(failed).toMatchObject({ step: "client", rule: "RFC 7591 §3.2.1" });
    expect(failed.summary).toContain(
      `changed the redirect URIs to ["http://127.0.0.1:3/cb"]; the client asked for ["${h.redirectUri}"]`,
    );
    expect(failed.fix).toContain("must register the redirect URIs the client sent, unchanged");
    expect(h.requests).not.toContain("GET /authorize");
  });

  it("says what the token endpoint refused, in its own words", async () => {
    h.tokenStatus = 400;
    h.token = () => ({ error: "invalid_grant", error_description: "code expired" });
    const { error, failed } = await failure();
    expectTraced(error, failed);
    expect(failed.summary).toBe(
      `The token endpoint ${h.issuer}/token answered HTTP 400 "invalid_grant": code expired.`,
    );
  });

  it("refuses resource metadata that names another resource", async () => {
    h.prm.resource = "http://127.0.0.1:4/mcp";
    const { error, failed } = await failure();
    expectTraced(error, failed);
    expect(failed).toMatchObject({ step: "resource-metadata", rule: "RFC 9728 §3.3" });
    expect(failed.summary).toContain(
      'names the resource "http://127.0.0.1:4/mcp", which is not this server',
    );
    expect(failed.fix).toBe(`The server's owner must set "resource" to the server's URL.`);
    expect(h.requests).not.toContain("GET /.well-known/oauth-authorization-server");
  });

  it("never shows the client secret, code or tokens, even when the sign-in fails after them", async () => {
    h.registration = (asked) => ({
      client_id: "c",
      client_secret: "client-secret-never-shown",
      client_secret_expires_at: 0,
      redirect_uris: asked.redirect_uris,
      token_endpoint_auth_method: "client_secret_post",
    });
    h.alwaysInsufficient = "mcp:admin";
    const { seen } = await failure();
    expect(seen).not.toContain("client-secret-never-shown");
  });
});
