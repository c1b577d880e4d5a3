import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { legacyRequest, mcpRequest } from "../../support/mcp-request.ts";
import { readReply } from "../../support/reply.ts";

/** The request, sent to the hub at /mcp instead of a server's own endpoint, by a token holder. */
function toHub(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.set("Authorization", "Bearer token-alice");
  return new Request(new URL("/mcp", request.url), new Request(request, { headers }));
}

const LOGGING_TOOL = "everything__test_logging_tool";

/** The log messages a tools/call reply carried. */
async function logsOf(request: Request, era: "2026" | "2025") {
  const reply = await readReply(await exports.default.fetch(toHub(request)), "tools/call", era);
  expect(reply.final?.result).toBeDefined();
  return reply.messages.filter((m) => m.method === "notifications/message").map((m) => m.params);
}

describe("the hub passes an upstream's log messages on", () => {
  it("to a 2025 client, as that server's own endpoint does", async () => {
    const direct = await readReply(
      await exports.default.fetch(
        legacyRequest("tools/call", { name: "test_logging_tool", arguments: {} }),
      ),
      "tools/call",
      "2025",
    );
    expect(direct.messages.some((m) => m.method === "notifications/message")).toBe(true);
    const logs = await logsOf(
      legacyRequest("tools/call", { name: LOGGING_TOOL, arguments: {} }),
      "2025",
    );
    expect(logs).toEqual([expect.objectContaining({ level: "info", data: "Logging evaluated" })]);
  });

  it("to a 2026 client at the level it asked for, and none when it asked for none", async () => {
    const asked = await logsOf(
      mcpRequest(
        "tools/call",
        { name: LOGGING_TOOL, arguments: {} },
        { meta: { "io.modelcontextprotocol/logLevel": "debug" } },
      ),
      "2026",
    );
    expect(asked).toEqual([expect.objectContaining({ level: "info", data: "Logging evaluated" })]);
    const silent = await logsOf(
      mcpRequest("tools/call", { name: LOGGING_TOOL, arguments: {} }),
      "2026",
    );
    expect(silent).toEqual([]);
  });
});
