import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../../worker/index.ts";
import { publishedDevTokens } from "../../../worker/servers/dev-tokens.ts";
import { mcpRequest } from "../../support/mcp-request.ts";

const local = new Request("http://localhost:8787/api/servers");
const deployed = new Request("https://edgemcp.example.workers.dev/api/servers");

describe("development tokens for the playground", () => {
  it("offers the published example tokens to a local request", async () => {
    const response = await exports.default.fetch(local);
    expect(await response.json()).toMatchObject({
      devTokens: [
        { subject: "alice", token: "token-alice" },
        { subject: "bob", token: "token-bob" },
      ],
    });
    expect(publishedDevTokens("dev-token-alice=alice,dev-token-bob=bob", local)).toHaveLength(2);
    // Read as bearerTokens reads it: roles are not part of the subject.
    expect(publishedDevTokens("dev-token-alice=alice:admin", local)).toEqual([
      { subject: "alice", token: "dev-token-alice" },
    ]);
  });

  it("offers nothing outside localhost", async () => {
    const response = await exports.default.fetch(deployed);
    expect(await response.json()).not.toHaveProperty("devTokens");
  });

  it("offers nothing when any token is not a published one", () => {
    expect(publishedDevTokens("dev-token-alice=alice,s3cr3t-real=carol", local)).toBeUndefined();
    // A published token standing for someone else is not the example either.
    expect(publishedDevTokens("dev-token-alice=root", local)).toBeUndefined();
    expect(publishedDevTokens("", local)).toBeUndefined();
  });
});

describe("the published tokens on the Worker", () => {
  const at = async (origin: string, token: string) => {
    const request = new Request(
      `${origin}/mcp/notes`,
      mcpRequest("tools/list", {}, { server: "notes" }),
    );
    request.headers.set("Authorization", `Bearer ${token}`);
    const ctx = createExecutionContext();
    // A deployment's own secret, so the example one's refusal off localhost is not what answers.
    const response = await worker.fetch(
      request,
      { ...env, EDGEMCP_SECRET: "a-real-secret-".repeat(4) },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return response;
  };

  it("are refused off localhost, saying why", async () => {
    const response = await at("https://edgemcp.example.workers.dev", "token-alice");
    expect(response.status).toBe(401);
    expect((await response.json<{ error: { message: string } }>()).error.message).toMatch(
      /published with edgemcp for local development and works only on localhost/,
    );
  });

  it("work on localhost", async () => {
    expect((await at("http://localhost:8787", "token-alice")).status).toBe(200);
  });
});
