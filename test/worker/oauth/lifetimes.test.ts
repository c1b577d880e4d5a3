import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mcpRequest } from "../../support/mcp-request.ts";
import { accessToken, fetchWorker, ORIGIN, token } from "./browser.ts";

// The authorization server reads the clock for every token it checks: moving Date moves it.
// Rate limits and failed authentications are counted per caller and address on that clock too,
// and a clock moved back confuses their windows: each test calls from an address of its own,
// and the tests that move the clock come last, each further ahead than the one before.
let address = 0;
beforeEach(() => void address++);
afterEach(() => vi.useRealTimers());

function later(seconds: number) {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + seconds * 1000 });
}

const list = (access: string) =>
  fetchWorker(
    mcpRequest(
      "tools/list",
      {},
      { server: "notes", headers: { Authorization: `Bearer ${access}` } },
    ),
  );

const refresh = (signedIn: Awaited<ReturnType<typeof accessToken>>, refreshToken: string) =>
  token(signedIn.browser, {
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: signedIn.clientId,
  });

async function expectInvalidToken(response: Response) {
  expect(response.status).toBe(401);
  const challenge = response.headers.get("WWW-Authenticate") ?? "";
  expect(challenge).toMatch(/^Bearer /);
  expect(challenge).toContain('error="invalid_token"');
  // The challenge still leads the client back to sign-in: the endpoint's metadata.
  expect(challenge).toContain(
    `resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp/notes"`,
  );
  const body = await response.text();
  expect(body).not.toContain("KV");
}

describe("revocation (RFC 7009, at the token endpoint)", () => {
  const revoke = (signedIn: Awaited<ReturnType<typeof accessToken>>, value: string, hint: string) =>
    signedIn.browser.post(`${ORIGIN}/oauth/token`, {
      token: value,
      token_type_hint: hint,
      client_id: signedIn.clientId,
    });

  it("a revoked refresh token ends the grant: it no longer refreshes and its access token gets 401", async () => {
    const signedIn = await accessToken();
    expect((await revoke(signedIn, signedIn.refresh, "refresh_token")).status).toBe(200);
    const refused = await refresh(signedIn, signedIn.refresh);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("invalid_grant");
    await expectInvalidToken(await list(signedIn.access));
  });

  it("a revoked access token gets 401 while another sign-in's token keeps working", async () => {
    const [revoked, kept] = await Promise.all([accessToken(), accessToken({ user: "bob" })]);
    expect((await revoke(revoked, revoked.access, "access_token")).status).toBe(200);
    await expectInvalidToken(await list(revoked.access));
    expect((await list(kept.access)).status).toBe(200);
  });

  it("answers 200 for a token it does not know, revoking nothing (RFC 7009 §2.2)", async () => {
    const signedIn = await accessToken();
    const unknown = await revoke(signedIn, `${signedIn.access.slice(0, -4)}AAAA`, "access_token");
    expect(unknown.status).toBe(200);
    expect((await list(signedIn.access)).status).toBe(200);
  });
});

describe("token lifetimes", () => {
  it("refuses an access token past its hour with 401 invalid_token, and its refresh token gets a new one", async () => {
    const signedIn = await accessToken();
    expect((await list(signedIn.access)).status).toBe(200);
    later(3600 + 5);
    await expectInvalidToken(await list(signedIn.access));
    const refreshed = await refresh(signedIn, signedIn.refresh);
    expect(refreshed.status).toBe(200);
    expect((await list(String(refreshed.body.access_token))).status).toBe(200);
  });

  it("refuses a refresh token past its 30 days with invalid_grant", async () => {
    const signedIn = await accessToken();
    later(30 * 24 * 3600 + 5);
    const refused = await refresh(signedIn, signedIn.refresh);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("invalid_grant");
    await expectInvalidToken(await list(signedIn.access));
  });
});
