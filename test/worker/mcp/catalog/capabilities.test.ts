import { describe, expect, it } from "vitest";
import { defineServer, tool } from "../../../../worker/mcp/index.ts";
import { mcpRequest } from "../../../support/mcp-request.ts";
import { serve } from "../../custom-server.ts";
const request = (method: string, params: Record<string, unknown> = {}) =>
  mcpRequest(method, params, { server: "t" });

describe("capabilities follow what a server defines", () => {
  const server = serve(
    defineServer({
      name: "tools-only",
      version: "1.0.0",
      tools: [tool({ name: "t", description: "T", run: () => "ok" })],
    }),
  );

  it("advertises only tools", async () => {
    const { final } = await server.send(request("server/discover"), "server/discover");
    expect(final?.result.capabilities).toEqual({ tools: {} });
  });

  it.each(["prompts/list", "resources/list", "resources/templates/list", "completion/complete"])(
    "answers %s with -32601 since the capability is not offered",
    async (method) => {
      const reply = await server.send(request(method), method);
      expect(reply.status).toBe(404);
      expect(reply.final?.error.code).toBe(-32601);
    },
  );
});
