import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

describe("the playground's Client ID Metadata Document", () => {
  it("names itself by the URL it is served at, with the page's callback on the same origin as its only redirect URI, a public client", async () => {
    const url = "https://edgemcp.example.workers.dev/api/playground-client";
    const response = await exports.default.fetch(new Request(url));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const document = (await response.json()) as Record<string, unknown>;
    // draft-ietf-oauth-client-id-metadata-document §4.1: client_id is the document's own URL.
    expect(document).toMatchObject({
      client_id: url,
      client_name: "edgemcp playground",
      redirect_uris: ["https://edgemcp.example.workers.dev/sign-in/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    });
    expect(document).not.toHaveProperty("client_secret");
  });

  it("follows the origin it is asked on, so each deployment names its own callback", async () => {
    const response = await exports.default.fetch(
      new Request("https://playground.example.com/api/playground-client"),
    );
    expect(await response.json()).toMatchObject({
      client_id: "https://playground.example.com/api/playground-client",
      redirect_uris: ["https://playground.example.com/sign-in/callback"],
    });
  });
});
