import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { mcpRequest, rawPost } from "../../../support/mcp-request.ts";

const MODERN = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list" };

/** The status and JSON body of a refusal made before the request's id was read. */
async function refusal(request: Request): Promise<{ status: number; body: unknown }> {
  const response = await exports.default.fetch(request);
  return { status: response.status, body: await response.json() };
}

// JSON-RPC 2.0: an error for a request whose id could not be determined has "id": null. A
// reader that insists on the member (the official Python SDK's) otherwise reports a generic
// -32603 and loses the reason. (429 is in limits-rates.test.ts; 403 in auth/policy.test.ts.)
describe("an error sent before the request's id is known carries id null", () => {
  it.each([
    [
      "401, an unknown bearer token",
      () => mcpRequest("tools/list", {}, { headers: { Authorization: "Bearer not-a-token" } }),
      401,
    ],
    ["405, a GET", () => new Request("http://localhost/mcp/everything"), 405],
    ["415, a text body", () => rawPost("{}", { ...MODERN, "Content-Type": "text/plain" }), 415],
    [
      "406, an Accept of neither kind",
      () => rawPost("{}", { ...MODERN, Accept: "text/html" }),
      406,
    ],
    ["400, malformed JSON", () => rawPost("{not json", MODERN), 400],
    [
      "413, a body over the limit",
      () => rawPost(JSON.stringify({ pad: "x".repeat(2 * 1024 * 1024) }), MODERN),
      413,
    ],
  ])("%s", async (_what, request, status) => {
    const { status: got, body } = await refusal(request());
    expect(got).toBe(status);
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: expect.any(Number) } });
    expect(typeof (body as { error: { message: unknown } }).error.message).toBe("string");
  });
});
