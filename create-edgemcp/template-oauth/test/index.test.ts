import { exports } from "cloudflare:workers";
import { connect } from "edgemcp/client";
import { withAuth, type AuthorizationRequest } from "edgemcp/client/auth";
import { describe, expect, it } from "vitest";
import * as z from "zod";

const ORIGIN = "http://localhost";
const send = (url: string | URL | Request, init?: RequestInit) =>
  exports.default.fetch(new Request(url, init));

/**
 * The person at the sign-in page: opens it (keeping its cookie, as a browser does), picks the
 * development login's user and allows, and hands back where the page sent them.
 */
async function allowAsDeveloper({ url }: AuthorizationRequest): Promise<string> {
  const page = await send(url);
  expect(page.status).toBe(200);
  const cookie = page.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
  const handle = /name="handle" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
  const answer = await send(`${ORIGIN}/authorize`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams({ handle, decision: "allow", user: "dev" }),
    redirect: "manual",
  });
  expect(answer.status).toBe(302);
  return answer.headers.get("Location") ?? "";
}

/** A host signed in through the Worker's page: dynamic registration, PKCE, a token for /mcp. */
async function signedIn() {
  const auth = withAuth(`${ORIGIN}/mcp`, {
    clientName: "The tests",
    redirectUri: "http://127.0.0.1:8976/callback",
    interact: allowAsDeveloper,
    fetch: send,
  });
  return { session: auth.session, mcp: await connect(`${ORIGIN}/mcp`, { fetch: auth.fetch }) };
}

/** A client that sends this token and nothing else (no sign-in of its own). */
const withToken = (token: string) =>
  connect(`${ORIGIN}/mcp`, {
    fetch: (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set("Authorization", `Bearer ${token}`);
      return send(url, { ...init, headers });
    },
  });

/** A bare request, for what is refused before the body is read. */
const listTools = (authorization?: string) =>
  send(`${ORIGIN}/mcp`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      ...(authorization ? { Authorization: authorization } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });

describe("sign-in", () => {
  it("refuses a caller without a token with 401 naming the metadata hosts sign in with", async () => {
    const refused = await listTools();
    expect(refused.status).toBe(401);
    const metadataUrl = `${ORIGIN}/.well-known/oauth-protected-resource/mcp`;
    expect(refused.headers.get("WWW-Authenticate")).toContain(`resource_metadata="${metadataUrl}"`);
    const resource = await (await send(metadataUrl)).json();
    expect(resource).toMatchObject({
      resource: `${ORIGIN}/mcp`,
      authorization_servers: [ORIGIN],
      scopes_supported: ["mcp"],
    });
    const server = await (await send(`${ORIGIN}/.well-known/oauth-authorization-server`)).json();
    expect(server).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/authorize`,
      code_challenge_methods_supported: ["S256"],
    });
  });

  it("signs a host in with the development login, for the scope mcp", async () => {
    const { session, mcp } = await signedIn();
    const { result } = await mcp.listTools();
    expect(result.tools.map((tool) => tool.name)).toEqual(["roll_dice"]);
    expect(session.status()?.scope?.split(" ")).toContain("mcp");
  });

  it("refuses a token it did not issue, and one revoked by signing out", async () => {
    expect((await listTools("Bearer not-a-token")).status).toBe(401);
    const { session } = await signedIn();
    const token = (await session.accessToken()) ?? "";
    const { result } = await (await withToken(token)).listTools();
    expect(result.tools).toHaveLength(1);
    expect(await session.signOut({ revoke: true })).toEqual({ revoked: true });
    const revoked = await listTools(`Bearer ${token}`);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
  });
});

describe("the MCP server, signed in", () => {
  it("rolls the dice it is asked for, each within its sides", async () => {
    const { mcp } = await signedIn();
    const { result } = await mcp.callTool("roll_dice", { sides: 20, count: 5 });
    const { rolls, total } = z
      .object({ rolls: z.array(z.number()), total: z.number() })
      .parse(result.structuredContent);
    expect(rolls).toHaveLength(5);
    for (const roll of rolls) expect(roll).toBeGreaterThanOrEqual(1);
    for (const roll of rolls) expect(roll).toBeLessThanOrEqual(20);
    expect(total).toBe(rolls.reduce((sum, roll) => sum + roll, 0));
  });

  it("serves its rules as a resource and fills in its prompt", async () => {
    const { mcp } = await signedIn();
    const rules = await mcp.readResource("dice://rules");
    expect(rules.result.contents[0]).toMatchObject({ uri: "dice://rules" });
    const prompt = await mcp.getPrompt("settle_a_dispute", { question: "Who goes first?" });
    expect(JSON.stringify(prompt.result.messages)).toContain("Who goes first?");
  });

  it("answers other paths with a pointer to /mcp", async () => {
    const response = await send(`${ORIGIN}/`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("/mcp");
  });
});
