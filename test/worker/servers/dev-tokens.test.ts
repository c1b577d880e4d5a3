import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { publishedDevTokens } from "../../../worker/servers/dev-tokens.ts";

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
