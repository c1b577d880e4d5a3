import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { accessPolicy } from "../../../worker/auth/policy.ts";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { jwtBearer } from "../../../worker/auth/jwt.ts";
import worker from "../../../worker/index.ts";
import { bearerTokens, defineServer, tool } from "../../../worker/mcp/index.ts";
import {
  epoch,
  hmacKey,
  keyPair,
  signJwt,
  unsignedJwt,
  type SigningKey,
} from "../../support/jwt.ts";
import { withLoggedErrors } from "../../support/logged-errors.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { readReply } from "../../support/reply.ts";
import { serve } from "../custom-server.ts";

const ISSUER = "https://issuer.example";
const SECRET = "jwt-test-secret-0123456789abcdef-0123456789";
const NOTES = "http://localhost/mcp/notes";
const HUB = "http://localhost/mcp";

let es: SigningKey;
let rs: SigningKey;
let hs: SigningKey;
let stranger: SigningKey;

beforeAll(async () => {
  es = await keyPair("ES256", "es-1");
  rs = await keyPair("RS256", "rs-1");
  hs = await hmacKey(SECRET);
  stranger = await keyPair("ES256", "es-1");
});

/** The demo Worker with JWT settings on top of the test bindings. */
async function fetchWorker(request: Request, vars: Record<string, string>): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

const withKeys = () => ({
  JWT_ISSUER: ISSUER,
  JWT_SECRET: SECRET,
  JWT_PUBLIC_KEYS: JSON.stringify({ keys: [es.jwk, rs.jwk] }),
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Calls a notes tool on the demo Worker as the bearer of `token`. */
async function callNotes(
  token: string | undefined,
  name = "create_note",
  vars: Record<string, string> = withKeys(),
  server = "notes",
) {
  const args = name === "create_note" ? { title: "JWT", body: "signed" } : { query: "x" };
  const request = mcpRequest(
    "tools/call",
    { name: server === "notes" ? name : `notes__${name}`, arguments: args },
    { server: server === "notes" ? "notes" : undefined, headers: token ? bearer(token) : {} },
  );
  const target = server === "notes" ? request : new Request(HUB, request);
  return readReply(await fetchWorker(target, vars), "tools/call");
}

const claims = (extra: Record<string, unknown> = {}) => ({
  iss: ISSUER,
  aud: NOTES,
  sub: "jwt-user",
  ...extra,
});

describe("JWT bearer tokens on the demo Worker", () => {
  it.each([
    ["ES256 (JWT_PUBLIC_KEYS)", () => es],
    ["RS256 (JWT_PUBLIC_KEYS)", () => rs],
    ["HS256 (JWT_SECRET)", () => hs],
  ])("runs a mutating tool for a valid %s token", async (_, key) => {
    const reply = await callNotes(await signJwt(key(), claims()));
    expect(reply.status).toBe(200);
    expect(reply.final?.result.isError).toBeFalsy();
    expect(JSON.stringify(reply.final?.result.content)).toContain("JWT");
  });

  it("accepts an `at+jwt` access token and an audience list naming this endpoint", async () => {
    const token = await signJwt(es, claims({ aud: ["https://other.example", NOTES] }), {
      typ: "at+jwt",
    });
    expect((await callNotes(token)).status).toBe(200);
    const spelled = await signJwt(es, claims(), { typ: "application/at+jwt" });
    expect((await callNotes(spelled)).status).toBe(200);
  });

  it("keeps the static API tokens working beside JWTs", async () => {
    expect((await callNotes("token-alice")).status).toBe(200);
  });

  const refusals: [string, RegExp, () => Promise<string>][] = [
    [
      "another issuer",
      /another issuer/,
      () => signJwt(es, claims({ iss: "https://evil.example" })),
    ],
    ["no issuer", /another issuer/, () => signJwt(es, claims({ iss: undefined }))],
    [
      "another audience",
      /not issued for this MCP endpoint/,
      () => signJwt(es, claims({ aud: "http://localhost/mcp/ops" })),
    ],
    [
      "no audience",
      /not issued for this MCP endpoint/,
      () => signJwt(es, claims({ aud: undefined })),
    ],
    [
      "an expiry past the clock skew",
      /has expired/,
      () => signJwt(es, claims({ exp: epoch(-120) })),
    ],
    ["no expiry", /no expiry/, () => signJwt(es, claims({ exp: "soon" }))],
    [
      "a not-before ahead of the clock skew",
      /not valid yet/,
      () => signJwt(es, claims({ nbf: epoch(600) })),
    ],
    ["no subject", /no subject/, () => signJwt(es, claims({ sub: "" }))],
    [
      "an issued-at ahead of the clock skew",
      /issued in the future/,
      () => signJwt(es, claims({ iat: epoch(600) })),
    ],
    [
      "a lifetime of ten years",
      /lives longer than this endpoint accepts/,
      () => signJwt(es, claims({ exp: epoch(10 * 365 * 86_400) })),
    ],
    [
      "a lifetime of two days, issued an hour ago",
      /lives longer/,
      () => signJwt(es, claims({ iat: epoch(-3600), exp: epoch(2 * 86_400 - 3600) })),
    ],
    [
      "a key this endpoint does not know",
      /signature does not verify/,
      () => signJwt(stranger, claims()),
    ],
    [
      "an unknown key id",
      /key this endpoint does not know/,
      () => signJwt(es, claims(), { kid: "es-9" }),
    ],
    ["alg none", /algorithm is not accepted/, async () => unsignedJwt(claims())],
    [
      "a header naming an algorithm its key does not fit",
      /key this endpoint does not know/,
      () => signJwt(es, claims(), { alg: "RS256" }),
    ],
    [
      "a type that is not a JWT",
      /not a JWT access token/,
      () => signJwt(es, claims(), { typ: "dpop+jwt" }),
    ],
    [
      "a critical header extension",
      /critical header/,
      () => signJwt(es, claims(), { crit: ["exp"] }),
    ],
    [
      "a signature that is not base64url",
      /not valid for this MCP endpoint/,
      async () => `${(await signJwt(es, claims())).slice(0, -2)}+/`,
    ],
    [
      "a header that is not JSON",
      /not valid for this MCP endpoint/,
      async () => `bm90LWpzb24.${(await signJwt(es, claims())).split(".").slice(1).join(".")}`,
    ],
    [
      "a tampered payload",
      /signature does not verify/,
      async () => {
        const [head, , signature] = (await signJwt(es, claims())).split(".");
        const forged = btoa(JSON.stringify(claims({ sub: "admin", exp: epoch(3600) }))).replace(
          /=+$/,
          "",
        );
        return `${head}.${forged.replace(/\+/g, "-").replace(/\//g, "_")}.${signature}`;
      },
    ],
  ];

  it.each(refusals)(
    "refuses a token with %s: 401 invalid_token, nothing runs",
    async (_, reason, make) => {
      const reply = await callNotes(await make());
      expect(reply.status).toBe(401);
      expect(reply.headers.get("WWW-Authenticate")).toBe(
        `Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp/notes", error="invalid_token"`,
      );
      // The message says what is wrong without repeating the token's claims.
      const message = String(reply.final?.error.message);
      expect(message).toMatch(reason);
      expect(message).not.toMatch(/evil|admin|ops|es-9|jwt-user/);
    },
  );

  it("allows an expiry and a not-before within the clock skew", async () => {
    const token = await signJwt(es, claims({ exp: epoch(-20), nbf: epoch(20) }));
    expect((await callNotes(token)).status).toBe(200);
  });

  it("refuses an HS256 token signed with a published public key (algorithm confusion)", async () => {
    const vars = { JWT_ISSUER: ISSUER, JWT_PUBLIC_KEYS: JSON.stringify({ keys: [es.jwk] }) };
    const confused = await hmacKey(JSON.stringify(es.jwk));
    const reply = await callNotes(await signJwt(confused, claims()), "create_note", vars);
    expect(reply.status).toBe(401);
    expect(reply.final?.error.message).toMatch(/algorithm is not accepted/);
  });

  it("refuses an HS256 token keyed with a public key even where HS256 is enabled", async () => {
    const confused = await hmacKey(JSON.stringify(es.jwk));
    const reply = await callNotes(await signJwt(confused, claims()));
    expect(reply.status).toBe(401);
    expect(reply.final?.error.message).toMatch(/signature does not verify/);
  });

  it("skips published keys not meant for verifying signatures", async () => {
    const encryption = { ...es.jwk, use: "enc" };
    const wrapOnly = { ...rs.jwk, key_ops: ["wrapKey"] };
    const vars = {
      JWT_ISSUER: ISSUER,
      JWT_PUBLIC_KEYS: JSON.stringify({ keys: [encryption, wrapOnly, { ...rs.jwk, kid: "rs-2" }] }),
    };
    for (const key of [es, rs]) {
      const reply = await callNotes(await signJwt(key, claims()), "create_note", vars);
      expect(reply.status).toBe(401);
      expect(reply.final?.error.message).toMatch(/key this endpoint does not know/);
    }
  });

  it("does not take an in-process mark from a binding's props", async () => {
    // A service binding can set ctx.props; only contexts this isolate made are in-process.
    const token = await signJwt(es, claims({ aud: HUB }));
    const ctx = createExecutionContext();
    const forged = {
      waitUntil: (promise: Promise<unknown>) => ctx.waitUntil(promise),
      passThroughOnException: () => {},
      props: { "edgemcp.inProcess": "call" },
    };
    const request = mcpRequest(
      "tools/call",
      { name: "create_note", arguments: { title: "t", body: "b" } },
      { server: "notes", headers: bearer(token) },
    );
    const response = await worker.fetch(request, { ...env, ...withKeys() }, forged);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(401);
  });

  it("lets an anonymous caller do only what the server lets it with JWT configured", async () => {
    expect((await callNotes(undefined, "create_note")).status).toBe(401);
    expect((await callNotes(undefined, "search_notes")).status).toBe(200);
  });

  it("accepts a hub token at the hub and forwards it to the in-process server", async () => {
    const token = await signJwt(es, claims({ aud: HUB }));
    const reply = await callNotes(token, "create_note", withKeys(), "hub");
    expect(reply.status).toBe(200);
    expect(reply.final?.result.isError).toBeFalsy();
    // The same token used at the notes endpoint itself names another audience.
    expect((await callNotes(token)).status).toBe(401);
  });

  it("takes the accepted audiences from JWT_AUDIENCE when it is set", async () => {
    const vars = { ...withKeys(), JWT_AUDIENCE: "https://api.example/mcp, urn:edgemcp" };
    expect(
      (await callNotes(await signJwt(es, claims({ aud: "urn:edgemcp" })), "create_note", vars))
        .status,
    ).toBe(200);
    expect((await callNotes(await signJwt(es, claims()), "create_note", vars)).status).toBe(401);
  });

  it("names the issuer in the protected resource metadata, after the Worker's own sign-in", async () => {
    const response = await fetchWorker(
      new Request("http://localhost/.well-known/oauth-protected-resource/mcp/notes"),
      withKeys(),
    );
    expect(await response.json()).toMatchObject({
      resource: NOTES,
      authorization_servers: ["http://localhost", ISSUER],
      bearer_methods_supported: ["header"],
    });
  });

  it.each([
    [{ JWT_PUBLIC_KEYS: JSON.stringify({ keys: [] }) }, /JWT_ISSUER must name the issuer/],
    [{ JWT_ISSUER: ISSUER }, /no key is: set JWT_JWKS_URL/],
    [{ JWT_ISSUER: ISSUER, JWT_SECRET: "short" }, /JWT_SECRET is too short/],
    [{ JWT_ISSUER: ISSUER, JWT_PUBLIC_KEYS: "{" }, /JWT_PUBLIC_KEYS is not JSON/],
    [{ JWT_ISSUER: ISSUER, JWT_PUBLIC_KEYS: '{"keys":[1]}' }, /must be a JWK Set/],
    [{ JWT_ISSUER: ISSUER, JWT_JWKS_URL: "http://keys.example/jwks" }, /must be an https URL/],
    [
      { JWT_ISSUER: ISSUER, JWT_PUBLIC_KEYS: '{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}' },
      /holds no public key that can verify/,
    ],
  ])("fails closed on a misconfiguration, saying what to fix (%o)", async (vars, message) => {
    const token = await signJwt(es, claims());
    const reply = await callNotes(token, "create_note", vars as Record<string, string>);
    expect(reply.status).toBe(500);
    expect(reply.final?.error.message).toMatch(message);
  });
});

describe("JWT policy and the JWK Set", () => {
  const definition = defineServer({
    name: "keys",
    version: "1",
    tools: [
      tool({ name: "write", run: () => "written" }),
      tool({ name: "whoami", run: (_, ctx) => ctx.caller?.subject ?? "nobody" }),
    ],
  });
  const JWKS_URL = "https://issuer.example/jwks";

  /** A JWKS endpoint that counts its fetches; `answer` decides each response. */
  function jwksEndpoint(answer: () => Response | Promise<Response>) {
    const seen = { fetches: 0 };
    const fetcher = (async (input: RequestInfo | URL) => {
      seen.fetches++;
      expect(String(input)).toBe(JWKS_URL);
      return answer();
    }) as typeof fetch;
    return { seen, fetcher };
  }

  function app(fetcher: typeof fetch, jwksTtlSeconds?: number) {
    return serve(
      definition,
      {
        authenticate: bearerTokens({
          variable: "API_TOKENS",
          next: jwtBearer({
            fetch: fetcher,
            ...(jwksTtlSeconds === undefined ? {} : { jwksTtlSeconds }),
          }),
        }),
        policy: accessPolicy({
          rules: [
            { who: "scope:keys.write", methods: ["tools/call"], names: ["write"] },
            { who: "role:writer", methods: ["tools/call"], names: ["write"] },
            { who: "*", methods: ["tools/call"], names: ["write"], effect: "deny" },
          ],
        }),
      },
      { JWT_ISSUER: ISSUER, JWT_JWKS_URL: JWKS_URL },
    );
  }

  // The app serves its root: the audience a token must name is the origin.
  const AUD = "http://localhost";
  const keysResponse = () => Response.json({ keys: [rs.jwk, es.jwk] });

  async function toolCall(served: ReturnType<typeof app>, name: string, token: string) {
    const request = mcpRequest("tools/call", { name, arguments: {} }, { headers: bearer(token) });
    return served.send(request, "tools/call");
  }

  it("fetches the issuer's keys once for many requests and reads scopes and roles", async () => {
    const { seen, fetcher } = jwksEndpoint(keysResponse);
    const served = app(fetcher);
    const scoped = await signJwt(rs, {
      iss: ISSUER,
      aud: AUD,
      sub: "s",
      scope: "keys.read keys.write",
    });
    const role = await signJwt(es, { iss: ISSUER, aud: AUD, sub: "r", roles: ["writer"] });
    const plain = await signJwt(es, { iss: ISSUER, aud: AUD, sub: "p", scp: ["keys.read"] });
    const replies = await Promise.all([
      toolCall(served, "write", scoped),
      toolCall(served, "write", role),
      toolCall(served, "write", plain),
      toolCall(served, "whoami", plain),
    ]);
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 403, 200]);
    // The refused caller is told which scopes would allow the call (step-up), through the
    // static tokens' next authenticator.
    expect(replies[2]?.headers.get("WWW-Authenticate")).toContain(
      'error="insufficient_scope", scope="keys.read keys.write"',
    );
    expect(JSON.stringify(replies[3]?.final?.result.content)).toContain('"p"');
    expect(seen.fetches).toBe(1);
  });

  it("answers 503 when the keys cannot be fetched, without naming where they live", async () => {
    const { seen, fetcher } = jwksEndpoint(() => new Response("down", { status: 502 }));
    const reply = await toolCall(
      app(fetcher),
      "whoami",
      await signJwt(es, { iss: ISSUER, aud: AUD, sub: "x" }),
    );
    expect(reply.status).toBe(503);
    expect(reply.headers.get("Retry-After")).toBe("5");
    expect(String(reply.final?.error.message)).not.toContain("issuer.example");
    expect(seen.fetches).toBe(1);
  });

  it("refuses a JWK Set larger than it reads", async () => {
    const huge = JSON.stringify({ keys: [es.jwk], padding: "x".repeat(300 * 1024) });
    const { fetcher } = jwksEndpoint(() => new Response(huge));
    const { value: reply, logged } = await withLoggedErrors(async () =>
      toolCall(app(fetcher), "whoami", await signJwt(es, { iss: ISSUER, aud: AUD, sub: "x" })),
    );
    expect(reply.status).toBe(503);
    // The operator's log says what was too large: the issuer's key set, not a request.
    expect(logged).toContain(`the JWK Set is larger than ${256 * 1024} bytes`);
  });

  it("verifies with an RSA key published without alg or use, as some issuers publish theirs", async () => {
    // Microsoft Entra ID's key sets, for one, carry kty, kid, n and e but no alg.
    const { alg: _alg, use: _use, ...bare } = rs.jwk!;
    const { fetcher } = jwksEndpoint(() => Response.json({ keys: [bare, es.jwk] }));
    const served = app(fetcher);
    const token = await signJwt(rs, { iss: ISSUER, aud: AUD, sub: "entra" });
    const reply = await toolCall(served, "whoami", token);
    expect(reply.status).toBe(200);
    expect(JSON.stringify(reply.final?.result.content)).toContain('"entra"');
    // The key type still decides: an ES256 token naming that key id is refused.
    const forged = await signJwt(es, { iss: ISSUER, aud: AUD, sub: "x" }, { kid: rs.kid });
    const refused = await toolCall(served, "whoami", forged);
    expect(refused.status).toBe(401);
  });

  it("refuses a token without a key id when the set has several keys of its type", async () => {
    const other = await keyPair("ES256", "es-2");
    const { fetcher } = jwksEndpoint(() => Response.json({ keys: [es.jwk, other.jwk] }));
    const token = await signJwt(es, { iss: ISSUER, aud: AUD, sub: "x" }, { kid: null });
    const reply = await toolCall(app(fetcher), "whoami", token);
    expect(reply.status).toBe(401);
    expect(reply.final?.error.message).toMatch(/names no key/);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps using fetched keys while the issuer is down, and does not hammer it", async () => {
    let up = true;
    const { seen, fetcher } = jwksEndpoint(() =>
      up ? keysResponse() : new Response("down", { status: 503 }),
    );
    // A lifetime of 0: every request would fetch again.
    const served = app(fetcher, 0);
    const token = await signJwt(es, { iss: ISSUER, aud: AUD, sub: "x" });
    expect((await toolCall(served, "whoami", token)).status).toBe(200);
    up = false;
    expect((await toolCall(served, "whoami", token)).status).toBe(200);
    expect((await toolCall(served, "whoami", token)).status).toBe(200);
    // One fetch that worked, one that failed; then 30 s without asking again.
    expect(seen.fetches).toBe(2);
  });

  it("fetches again for a key id it lacks, at most every 30 seconds (rotation)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const rotated = await keyPair("ES256", "es-rotated");
    let published = [es.jwk];
    const { seen, fetcher } = jwksEndpoint(() => Response.json({ keys: published }));
    const served = app(fetcher);
    const old = await signJwt(es, { iss: ISSUER, aud: AUD, sub: "x" });
    expect((await toolCall(served, "whoami", old)).status).toBe(200);
    published = [es.jwk, rotated.jwk];
    const fresh = await signJwt(rotated, { iss: ISSUER, aud: AUD, sub: "x" });
    // Within 30 s of the last fetch, an unknown kid is refused without a fetch.
    expect((await toolCall(served, "whoami", fresh)).status).toBe(401);
    expect(seen.fetches).toBe(1);
    vi.setSystemTime(Date.now() + 31_000);
    expect((await toolCall(served, "whoami", fresh)).status).toBe(200);
    expect(seen.fetches).toBe(2);
  });

  it("does not follow a redirect from the JWKS URL", async () => {
    const { fetcher } = jwksEndpoint(
      () => new Response(null, { status: 302, headers: { Location: "http://evil.example/keys" } }),
    );
    const reply = await toolCall(
      app(fetcher),
      "whoami",
      await signJwt(es, { iss: ISSUER, aud: AUD, sub: "x" }),
    );
    expect(reply.status).toBe(503);
  });

  it("refuses clock skew and key lifetimes that are not numbers of seconds", () => {
    expect(() => jwtBearer({ clockSkewSeconds: Number.NaN })).toThrow(/clockSkewSeconds/);
    expect(() => jwtBearer({ clockSkewSeconds: 3600 })).toThrow(/clockSkewSeconds/);
    expect(() => jwtBearer({ jwksTtlSeconds: -1 })).toThrow(/jwksTtlSeconds/);
  });
});
