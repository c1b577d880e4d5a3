import { describe, expect, it } from "vitest";
import { TEST_TOKENS } from "../../support/secrets.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { readReply } from "../../support/reply.ts";
import {
  accessToken,
  Browser,
  fetchWorker,
  ORIGIN,
  pkce,
  REDIRECT,
  register,
  signInFor,
  token,
} from "./browser.ts";

const call = (server: string, name: string, args: Record<string, unknown>, token?: string) =>
  mcpRequest(
    "tools/call",
    { name, arguments: args },
    { server, headers: token ? { Authorization: `Bearer ${token}` } : {} },
  );
const hubCall = (name: string, args: Record<string, unknown>, token: string) => {
  const request = call("", name, args, token);
  return new Request(`${ORIGIN}/mcp`, request);
};

describe("discovery", () => {
  it("names this Worker's authorization server and the endpoint's baseline scope in each endpoint's metadata", async () => {
    for (const path of ["/mcp/notes", "/mcp"]) {
      const response = await fetchWorker(
        new Request(`${ORIGIN}/.well-known/oauth-protected-resource${path}`),
      );
      expect(await response.json()).toMatchObject({
        resource: `${ORIGIN}${path}`,
        authorization_servers: [ORIGIN],
        scopes_supported: ["mcp"],
      });
    }
  });

  it("serves the authorization server's metadata with PKCE, registration and client metadata documents", async () => {
    const response = await fetchWorker(
      new Request(`${ORIGIN}/.well-known/oauth-authorization-server`),
    );
    expect(response.status).toBe(200);
    const metadata = (await response.json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      code_challenge_methods_supported: ["S256"],
      client_id_metadata_document_supported: true,
    });
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(["mcp", "notes:delete", "ops:deploy"]),
    );
  });
});

describe("a signed-in caller", () => {
  it("creates a note with a token for /mcp/notes", async () => {
    const { access } = await accessToken();
    const reply = await readReply(
      await fetchWorker(
        call("notes", "create_note", { title: "Signed in", body: "by alice" }, access),
      ),
      "tools/call",
    );
    expect(reply.status).toBe(200);
    expect(reply.final?.result?.isError).toBeFalsy();
  });

  it("is refused deleting a note with 403 insufficient_scope naming the scope to step up to, and deletes after stepping up", async () => {
    const { access } = await accessToken();
    const created = await readReply(
      await fetchWorker(call("notes", "create_note", { title: "Doomed", body: "x" }, access)),
      "tools/call",
    );
    const id = Number(/note-(\d+)/.exec(JSON.stringify(created.final?.result))?.[1] ?? Number.NaN);
    expect(id).toBeGreaterThan(0);
    const refused = await fetchWorker(call("notes", "delete_note", { id }, access));
    expect(refused.status).toBe(403);
    expect(refused.headers.get("WWW-Authenticate")).toBe(
      `Bearer error="insufficient_scope", scope="mcp notes:delete", resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp/notes"`,
    );
    const stepped = await accessToken({ scope: "mcp notes:delete" });
    const deleted = await readReply(
      await fetchWorker(call("notes", "delete_note", { id }, stepped.access)),
      "tools/call",
    );
    expect(deleted.status).toBe(200);
    expect(deleted.final?.result?.isError).toBeFalsy();
  });

  it("is refused where the token was not issued for: another server of this Worker, or the hub", async () => {
    const { access } = await accessToken();
    for (const request of [
      call("ops", "run_build", {}, access),
      hubCall("notes__create_note", { title: "x", body: "y" }, access),
    ]) {
      const response = await fetchWorker(request);
      expect(response.status).toBe(401);
      expect(response.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    }
  });

  it("reaches the hub's servers with a token for the hub, under the same scope rules", async () => {
    const { access } = await accessToken({ resource: `${ORIGIN}/mcp` });
    const created = await fetchWorker(
      hubCall("notes__create_note", { title: "Via hub", body: "x" }, access),
    );
    expect(created.status).toBe(200);
    const refused = await fetchWorker(hubCall("notes__delete_note", { id: 1 }, access));
    expect(refused.status).toBe(403);
    expect(refused.headers.get("WWW-Authenticate")).toContain('scope="mcp notes:delete"');
  });

  it("leaves static tokens as they were: no scopes, no scope rules", async () => {
    const created = await readReply(
      await fetchWorker(
        call("notes", "create_note", { title: "Static", body: "x" }, TEST_TOKENS.alice),
      ),
      "tools/call",
    );
    const id = Number(/note-(\d+)/.exec(JSON.stringify(created.final?.result))?.[1]);
    const deleted = await fetchWorker(call("notes", "delete_note", { id }, TEST_TOKENS.alice));
    expect(deleted.status).toBe(200);
  });

  it("is refused with 403 naming the baseline when its token was narrowed below the endpoint's baseline scope", async () => {
    const browser = new Browser();
    const clientId = await register(browser);
    const { verifier, challenge } = await pkce();
    const code = await signInFor(browser, clientId, challenge, { scope: "mcp offline_access" });
    const narrowed = await token(browser, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: clientId,
      scope: "offline_access",
    });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe("offline_access");
    const response = await fetchWorker(
      call("notes", "create_note", { title: "x", body: "y" }, String(narrowed.body.access_token)),
    );
    expect(response.status).toBe(403);
    expect(response.headers.get("WWW-Authenticate")).toContain(
      'error="insufficient_scope", scope="mcp"',
    );
  });
});
