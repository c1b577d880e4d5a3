import { describe, expect, it } from "vitest";
import { everything } from "../../../worker/servers/everything/index.ts";
import {
  isLocalRequest,
  keyringOf,
  MissingSecretError,
  refuseWeakSecrets,
} from "../../../worker/state/keyring.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { TEST_SECRETS } from "../../support/secrets.ts";
import { serve } from "../custom-server.ts";

const EXAMPLE = "dev-only-secret-change-me-0123456789abcdef";
const STRONG = "k2Q9v7XcJr1m8ZtB4hLw6pYs3NdF0aGe";

describe("the sealing secret outside localhost", () => {
  it.each([
    [
      "the .dev.vars.example value",
      EXAMPLE,
      undefined,
      /EDGEMCP_SECRET holds the published example value/,
    ],
    ["the test suite's value", TEST_SECRETS.EDGEMCP_SECRET, undefined, /published example value/],
    ["a short secret", "short-but-not-empty", undefined, /EDGEMCP_SECRET must be at least 32/],
    [
      "a published previous secret",
      STRONG,
      `${STRONG}x,${EXAMPLE}`,
      /EDGEMCP_PREVIOUS_SECRETS holds the published/,
    ],
    ["a short previous secret", STRONG, "tiny", /EDGEMCP_PREVIOUS_SECRETS must be at least 32/],
  ])("refuses %s, saying how to set a real one", (_what, secret, previous, message) => {
    const refusal = () => refuseWeakSecrets(secret, previous, false);
    expect(refusal).toThrow(MissingSecretError);
    expect(refusal).toThrow(message);
    expect(refusal).toThrow(/openssl rand -base64 32 \| npx wrangler secret put EDGEMCP_SECRET/);
  });

  it("accepts the published values on localhost, and a strong secret anywhere", async () => {
    expect(() => refuseWeakSecrets(EXAMPLE, EXAMPLE, true)).not.toThrow();
    expect(() => refuseWeakSecrets(STRONG, undefined, false)).not.toThrow();
    const env = { EDGEMCP_SECRET: EXAMPLE } as unknown as Cloudflare.Env;
    await expect(keyringOf(env, { local: true })).resolves.toBeDefined();
    await expect(keyringOf(env, { local: false })).rejects.toThrow(/published example value/);
  });

  it.each([
    ["http://localhost:8787/mcp", true],
    ["http://127.0.0.1:40123/mcp", true],
    ["http://[::1]:8787/mcp", true],
    ["http://app.localhost/mcp", true],
    ["https://edgemcp.example.workers.dev/mcp", false],
    ["http://localhost.example.com/mcp", false],
    ["http://127.0.0.1.example.com/mcp", false],
  ])("counts %s as local: %s", (url, local) => {
    expect(isLocalRequest(new Request(url))).toBe(local);
  });

  it("answers a deployed endpoint with the example secret 500, with what to do", async () => {
    const deployed = serve(everything, {}, { EDGEMCP_SECRET: EXAMPLE });
    const request = new Request(
      "https://edgemcp.example.workers.dev/mcp/everything",
      mcpRequest("tools/list"),
    );
    const response = await deployed.fetch(request);
    expect(response.status).toBe(500);
    const body = await response.json<{ error: { message: string } }>();
    expect(body.error.message).toMatch(/^Server misconfigured: EDGEMCP_SECRET holds the published/);
    expect(body.error.message).not.toContain(EXAMPLE);
    // The same secret serves localhost, as `npm start` uses it.
    const local = await deployed.fetch(mcpRequest("tools/list"));
    expect(local.status).toBe(200);
  });
});
