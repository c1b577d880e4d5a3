import { describe, expect, it } from "vitest";
import type { AuthSession } from "../../../../shared/client/auth/index.ts";
import { memoryStore, withAuth, type AuthEvent } from "../../../../shared/client/auth/index.ts";
import { ISSUER, MCP, REDIRECT, s256, world, type World } from "./world.ts";

function signIn(w: World, extra: Partial<ConstructorParameters<typeof AuthSession>[1]> = {}) {
  const events: AuthEvent[] = [];
  const auth = withAuth(MCP, {
    redirectUri: REDIRECT,
    interact: w.interact,
    fetch: w.fetch,
    onEvent: (event) => events.push(event),
    ...extra,
  });
  const call = () => auth.fetch(MCP, { method: "POST", body: "{}" });
  return { ...auth, events, call };
}

describe("signing in to an MCP server", () => {
  it("answers a 401 with discovery, registration, PKCE S256 and resource on both requests, then retries", async () => {
    const w = world();
    const { call, events, session } = signIn(w);
    const response = await call();
    expect(response.status).toBe(200);
    expect(events.map((e) => `${e.step}:${e.status}`)).toEqual([
      "challenge:ok",
      "resource-metadata:ok",
      "server-metadata:ok",
      "client:ok",
      "authorization:ok",
      "callback:ok",
      "token:ok",
      "retry:ok",
    ]);
    const [authorization] = w.authorizations;
    expect(authorization?.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorization?.searchParams.get("resource")).toBe(MCP);
    expect(authorization?.searchParams.get("scope")).toBe("mcp:read");
    const form = w.tokenForms[0];
    expect(s256(form?.get("code_verifier") ?? "")).toBe(
      authorization?.searchParams.get("code_challenge"),
    );
    expect(form?.get("resource")).toBe(MCP);
    expect(session.status()).toMatchObject({ issuer: ISSUER, scope: "mcp:read" });
  });

  it("sends the kept token without signing in again", async () => {
    const w = world();
    const { call } = signIn(w);
    await call();
    await call();
    expect(w.authorizations).toHaveLength(1);
  });

  it("refreshes a lapsed token before sending it and keeps the rotated refresh token", async () => {
    const w = world();
    const store = memoryStore();
    const first = signIn(w, { store });
    await first.call();
    const record = (await store.load(`issuer:${ISSUER}`)) as {
      tokens: Record<string, { expires_at: number }>;
    };
    const kept = record.tokens[MCP];
    if (!kept) throw new Error("no tokens kept");
    kept.expires_at = Date.now() - 1000;
    await store.save(`issuer:${ISSUER}`, record);
    const second = signIn(w, { store });
    expect((await second.call()).status).toBe(200);
    expect(w.authorizations).toHaveLength(1);
    const refresh = w.tokenForms[1];
    expect(refresh?.get("grant_type")).toBe("refresh_token");
    expect(refresh?.get("refresh_token")).toBe("refresh-1-secret");
    expect(refresh?.get("resource")).toBe(MCP);
    const after = (await store.load(`issuer:${ISSUER}`)) as {
      tokens: Record<string, { refresh_token: string }>;
    };
    expect(after.tokens[MCP]?.refresh_token).toBe("refresh-2-secret");
  });

  it("signs in again when a lapsed token came without a refresh token", async () => {
    const w = world();
    const honest = w.token;
    w.token = (form) => {
      const answer = honest(form);
      delete answer.body.refresh_token;
      return answer;
    };
    const store = memoryStore();
    await signIn(w, { store }).call();
    const record = (await store.load(`issuer:${ISSUER}`)) as {
      tokens: Record<string, { expires_at: number }>;
    };
    const kept = record.tokens[MCP];
    if (!kept) throw new Error("no tokens kept");
    kept.expires_at = Date.now() - 1000;
    await store.save(`issuer:${ISSUER}`, record);
    expect((await signIn(w, { store }).call()).status).toBe(200);
    expect(w.authorizations).toHaveLength(2);
    const { fetch } = withAuth(MCP, { store, fetch: w.fetch, signInHint: "log in" });
    kept.expires_at = Date.now() - 1000;
    await store.save(`issuer:${ISSUER}`, record);
    await expect(fetch(MCP, { method: "POST", body: "{}" })).rejects.toThrow(
      `${MCP} asks for sign-in: log in`,
    );
  });

  it("steps up on 403 insufficient_scope with the union of the scopes held and asked", async () => {
    const w = world();
    w.requiredScope = "mcp:read mcp:write";
    const { call } = signIn(w);
    expect((await call()).status).toBe(200);
    expect(w.authorizations.map((url) => url.searchParams.get("scope"))).toEqual([
      "mcp:read",
      "mcp:read mcp:write",
    ]);
  });

  it("uses a Client ID Metadata Document when the server supports one, and a pre-registered id before it", async () => {
    const w = world();
    w.metadata.client_id_metadata_document_supported = true;
    await signIn(w, { clientMetadataUrl: "https://app.example/client.json" }).call();
    expect(w.authorizations[0]?.searchParams.get("client_id")).toBe(
      "https://app.example/client.json",
    );
    expect(w.requests).not.toContain(`POST ${ISSUER}/register`);
    await signIn(w, {
      clientMetadataUrl: "https://app.example/client.json",
      client: { client_id: "mine" },
    }).call();
    expect(w.authorizations[1]?.searchParams.get("client_id")).toBe("mine");
  });

  it("registers again with an issuer the server moved to, never reusing the first issuer's client", async () => {
    const w = world();
    const store = memoryStore();
    await signIn(w, { store }).call();
    const other = "https://auth2.example";
    const base = w.fetch;
    w.prm.authorization_servers = [other];
    w.issued.clear();
    w.fetch = (url, init) =>
      base(url.replace(other, ISSUER), init).then(async (response) => {
        if (!url.startsWith(other) || !url.includes("well-known")) return response;
        const body = (await response.json()) as Record<string, unknown>;
        return Response.json({
          ...body,
          issuer: other,
          authorization_endpoint: `${other}/authorize`,
          token_endpoint: `${other}/token`,
          registration_endpoint: `${other}/register`,
        });
      });
    w.callback = (request) => {
      const back = new URL(REDIRECT);
      back.searchParams.set("code", "c");
      back.searchParams.set("state", request.searchParams.get("state") ?? "");
      back.searchParams.set("iss", other);
      return back;
    };
    await signIn(w, { store }).call();
    expect(w.requests.filter((r) => r.endsWith("/register"))).toHaveLength(2);
    expect(Object.keys((await store.load(`issuer:${other}`)) as object)).toContain("client");
  });

  it("forgets the server's tokens on sign-out", async () => {
    const w = world();
    const store = memoryStore();
    const { call, session } = signIn(w, { store });
    await call();
    await session.signOut();
    expect(await session.accessToken()).toBeUndefined();
    await call();
    expect(w.authorizations).toHaveLength(2);
  });

  it("revokes the refresh and access tokens on sign-out when the server offers revocation", async () => {
    const w = world();
    w.metadata.revocation_endpoint = `${ISSUER}/revoke`;
    const revoked: URLSearchParams[] = [];
    const fetch: typeof w.fetch = (url, init) => {
      if (url !== `${ISSUER}/revoke`) return w.fetch(url, init);
      revoked.push(new URLSearchParams(String(init.body)));
      return Promise.resolve(new Response(null, { status: 200 }));
    };
    const { call, session } = signIn(w, { fetch });
    await call();
    await expect(session.signOut({ revoke: true })).resolves.toEqual({ revoked: true });
    expect(revoked.map((form) => [form.get("token"), form.get("token_type_hint")])).toEqual([
      ["refresh-1-secret", "refresh_token"],
      ["access-1-secret", "access_token"],
    ]);
    expect(revoked[0]?.get("client_id")).toBe("client-1");
    expect(await session.accessToken()).toBeUndefined();
  });

  it("still signs out, unrevoked, when the server offers no revocation or refuses it", async () => {
    const w = world();
    const { call, session } = signIn(w);
    await call();
    await expect(session.signOut({ revoke: true })).resolves.toEqual({ revoked: false });
    expect(await session.accessToken()).toBeUndefined();
    w.metadata.revocation_endpoint = `${ISSUER}/revoke-missing`;
    const again = signIn(w);
    await again.call();
    await expect(again.session.signOut({ revoke: true })).resolves.toEqual({ revoked: false });
    expect(await again.session.accessToken()).toBeUndefined();
  });

  it("without a way to open a sign-in page, fails with the caller's hint and registers nothing", async () => {
    const w = world();
    const { fetch } = withAuth(MCP, { fetch: w.fetch, signInHint: 'run "edgemcp login" first' });
    await expect(fetch(MCP, { method: "POST", body: "{}" })).rejects.toThrow(
      `${MCP} asks for sign-in: run "edgemcp login" first`,
    );
    expect(w.requests).not.toContain(`POST ${ISSUER}/register`);
  });

  it("registers again when the kept registration was made for another redirect URI", async () => {
    const w = world();
    const store = memoryStore();
    await signIn(w, { store }).call();
    await signIn(w, { store }).session.signOut();
    await signIn(w, { store, redirectUri: "http://127.0.0.1:9999/callback" }).call();
    expect(w.requests.filter((r) => r.endsWith("/register"))).toHaveLength(2);
    expect(w.authorizations[1]?.searchParams.get("redirect_uri")).toBe(
      "http://127.0.0.1:9999/callback",
    );
  });

  it("signs in ahead, before any 401, when the server publishes resource metadata", async () => {
    const w = world();
    const { session, events } = signIn(w);
    expect(await session.signInAhead()).toBe(true);
    expect(w.requests).not.toContain(`POST ${MCP}`);
    expect(w.authorizations[0]?.searchParams.get("scope")).toBe("mcp:read");
    expect(events[0]).toMatchObject({ step: "challenge", status: "skipped" });
    expect(await session.accessToken()).toMatch(/^access-/);
  });

  it("does not sign in ahead to a server without resource metadata", async () => {
    const w = world();
    const base = w.fetch;
    w.fetch = (url, init) =>
      url.includes("oauth-protected-resource")
        ? Promise.resolve(new Response("no", { status: 404 }))
        : base(url, init);
    const { session } = signIn(w);
    expect(await session.signInAhead()).toBe(false);
    expect(w.authorizations).toHaveLength(0);
    expect(w.requests.some((r) => r.includes("oauth-authorization-server"))).toBe(false);
  });

  it("refuses to sign in over plain http beyond loopback", async () => {
    const w = world();
    w.prm.authorization_servers = ["http://auth.example"];
    const { call, events } = signIn(w);
    await expect(call()).rejects.toThrow(
      "http://auth.example/.well-known/oauth-authorization-server is not https",
    );
    expect(events.at(-1)).toMatchObject({
      step: "server-metadata",
      status: "failed",
      rule: "OAuth 2.1 §1.5",
    });
    expect(events.at(-1)?.fix).toContain("must serve it over https");
  });

  it("passes a 401 without a Bearer challenge to the caller untouched", async () => {
    const w = world();
    const { fetch } = withAuth(MCP, {
      redirectUri: REDIRECT,
      interact: w.interact,
      fetch: async () =>
        new Response("no", { status: 401, headers: { "www-authenticate": 'Basic realm="x"' } }),
    });
    expect((await fetch(MCP, { method: "POST", body: "{}" })).status).toBe(401);
    expect(w.authorizations).toHaveLength(0);
  });

  it("signs in once for requests refused at the same time, with no refresh after it", async () => {
    const w = world();
    const { fetch } = signIn(w);
    const replies = await Promise.all(
      [1, 2, 3].map(() => fetch(MCP, { method: "POST", body: "{}" })),
    );
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200]);
    expect(w.authorizations).toHaveLength(1);
    expect(w.tokenForms.map((form) => form.get("grant_type"))).toEqual(["authorization_code"]);
  });
});
