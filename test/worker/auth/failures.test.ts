import { describe, expect, it } from "vitest";
import { durableObjects } from "../../../worker/durable/index.ts";
import { bearerTokens, defineServer, tool } from "../../../worker/mcp/index.ts";
import { AUTH_FAILURES_PER_MINUTE } from "../../../worker/durable/auth-failures.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";

const server = serve(
  defineServer({ name: "guarded", version: "1", tools: [tool({ name: "hi", run: () => "hi" })] }),
  {
    authenticate: bearerTokens({ variable: "API_TOKENS" }),
    durable: (e) => durableObjects({ limits: e.MCP_LIMITS }),
  },
);

const list = (ip: string, token: string) =>
  server.fetch(
    mcpRequest(
      "tools/list",
      {},
      { server: "guarded", headers: { "CF-Connecting-IP": ip, Authorization: `Bearer ${token}` } },
    ),
  );

describe("failed authentications", () => {
  it("are counted by address: past the limit a credential gets 429 before it is checked", async () => {
    const ip = "198.51.100.201";
    for (let i = 0; i < AUTH_FAILURES_PER_MINUTE; i++)
      expect((await list(ip, `wrong-${i}`)).status).toBe(401);
    const refused = await list(ip, "wrong-again");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await refused.json<{ error: { message: string } }>()).error.message).toMatch(
      /^Too many failed authentications from this address/,
    );
    // Even a right token waits: otherwise the guess that succeeds would still get through.
    expect((await list(ip, "token-alice")).status).toBe(429);
    // Another address is not held back.
    expect((await list("198.51.100.202", "wrong")).status).toBe(401);
    expect((await list("198.51.100.202", "token-alice")).status).toBe(200);
  });
});
