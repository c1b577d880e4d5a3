import { describe, expect, it } from "vitest";
import {
  AuthError,
  AuthSession,
  readPendingSignIn,
  withAuth,
  type AuthEvent,
  type AuthorizationRequest,
} from "../../../../shared/client/auth/index.ts";
import { ISSUER, MCP, REDIRECT, s256, world, type World } from "./world.ts";

/**
 * A page that leaves for the authorization page in its own tab: its interact keeps the pending
 * sign-in as JSON (what a page writes to session storage) and never answers, since the page is
 * gone. A new session, as on the page's return, finishes it from that JSON.
 */
async function leave(w: World): Promise<{ kept: string; request: AuthorizationRequest }> {
  let request: AuthorizationRequest | undefined;
  const { fetch } = withAuth(MCP, {
    redirectUri: REDIRECT,
    fetch: w.fetch,
    interact: (asked) => {
      request = asked;
      return new Promise(() => {});
    },
  });
  void fetch(MCP, { method: "POST", body: "{}" });
  await expect.poll(() => request).toBeDefined();
  if (!request) throw new Error("no authorization request");
  w.authorizations.push(request.url);
  return { kept: JSON.stringify(request.pending), request };
}

function returning(w: World) {
  const events: AuthEvent[] = [];
  const session = new AuthSession(MCP, {
    redirectUri: REDIRECT,
    fetch: w.fetch,
    onEvent: (event) => events.push(event),
  });
  return { session, events };
}

describe("finishing a sign-in after the page came back from the authorization page", () => {
  it("exchanges the code with the kept verifier and resource, then sends the token", async () => {
    const w = world();
    const { kept, request } = await leave(w);
    expect(kept).not.toContain("access-");
    const pending = readPendingSignIn(JSON.parse(kept));
    if (!pending) throw new Error("the kept sign-in did not read back");
    const { session, events } = returning(w);
    await session.resume(pending, w.callback(request.url));
    const form = w.tokenForms[0];
    expect(s256(form?.get("code_verifier") ?? "")).toBe(
      request.url.searchParams.get("code_challenge"),
    );
    expect(form?.get("resource")).toBe(MCP);
    expect(form?.get("client_id")).toBe("client-1");
    expect(events.map((e) => `${e.step}:${e.status}`)).toEqual(["callback:ok", "token:ok"]);
    expect(session.status()).toMatchObject({ issuer: ISSUER, scope: "mcp:read" });
    const token = await session.accessToken();
    expect(token).toBe("access-1-secret");
    expect(w.authorizations).toHaveLength(1);
  });

  it("refuses a callback whose state is not the kept one, and sends no token request", async () => {
    const w = world();
    const { kept, request } = await leave(w);
    const pending = readPendingSignIn(JSON.parse(kept));
    if (!pending) throw new Error("the kept sign-in did not read back");
    const forged = w.callback(request.url);
    forged.searchParams.set("state", "forged");
    const { session, events } = returning(w);
    const refused = await session.resume(pending, forged).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AuthError);
    expect(events.at(-1)).toMatchObject({
      step: "callback",
      status: "failed",
      rule: "OAuth 2.1 §7.12",
      summary:
        "The callback's state does not match the one sent, so it may not answer this sign-in and was refused.",
    });
    expect(w.tokenForms).toHaveLength(0);
    expect(await session.accessToken()).toBeUndefined();
  });

  it("refuses a callback whose iss is another issuer's (RFC 9207)", async () => {
    const w = world();
    const { kept, request } = await leave(w);
    const pending = readPendingSignIn(JSON.parse(kept));
    if (!pending) throw new Error("the kept sign-in did not read back");
    const back = w.callback(request.url);
    back.searchParams.set("iss", "https://evil.example");
    const { session } = returning(w);
    await expect(session.resume(pending, back)).rejects.toThrow(
      "The callback's iss is `https://evil.example` but the sign-in went to `https://auth.example`",
    );
    expect(w.tokenForms).toHaveLength(0);
  });

  it("refuses a pending sign-in kept for another server", async () => {
    const w = world();
    const { kept, request } = await leave(w);
    const pending = readPendingSignIn(JSON.parse(kept));
    if (!pending) throw new Error("the kept sign-in did not read back");
    const other = new AuthSession("https://other.example/mcp", {
      redirectUri: REDIRECT,
      fetch: w.fetch,
    });
    await expect(other.resume(pending, w.callback(request.url))).rejects.toThrow(
      `The sign-in that came back was started for ${MCP}, not for https://other.example/mcp`,
    );
    expect(w.tokenForms).toHaveLength(0);
  });

  it("reads back only a whole pending sign-in whose metadata names its issuer", async () => {
    const w = world();
    const { kept } = await leave(w);
    const whole = JSON.parse(kept) as Record<string, unknown> & {
      binding: { as: Record<string, unknown> };
    };
    expect(readPendingSignIn(whole)).toBeDefined();
    expect(readPendingSignIn(null)).toBeUndefined();
    expect(readPendingSignIn({ ...whole, verifier: "short" })).toBeUndefined();
    expect(readPendingSignIn({ ...whole, state: undefined })).toBeUndefined();
    expect(
      readPendingSignIn({
        ...whole,
        binding: { ...whole.binding, as: { ...whole.binding.as, issuer: "https://evil.example" } },
      }),
    ).toBeUndefined();
    expect(
      readPendingSignIn({
        ...whole,
        binding: { ...whole.binding, as: { ...whole.binding.as, token_endpoint: "not a url" } },
      }),
    ).toBeUndefined();
  });
});
