import { exports } from "cloudflare:workers";
import { connect } from "edgemcp/client";
import { describe, expect, it } from "vitest";
import * as z from "zod";

/** A client of the Worker under test; its requests go straight to the Worker's fetch handler. */
function client() {
  return connect("http://localhost/mcp", {
    fetch: (url, init) => exports.default.fetch(new Request(url, init)),
  });
}

describe("the MCP server", () => {
  it("speaks MCP 2026-07-28 and lists its tool", async () => {
    const mcp = await client();
    expect(mcp.era).toBe("modern");
    const { result } = await mcp.listTools();
    expect(result.tools.map((tool) => tool.name)).toEqual(["roll_dice"]);
  });

  it("rolls the dice it is asked for, each within its sides", async () => {
    const mcp = await client();
    const { result } = await mcp.callTool("roll_dice", { sides: 20, count: 5 });
    const { rolls, total } = z
      .object({ rolls: z.array(z.number()), total: z.number() })
      .parse(result.structuredContent);
    expect(rolls).toHaveLength(5);
    for (const roll of rolls) expect(roll).toBeGreaterThanOrEqual(1);
    for (const roll of rolls) expect(roll).toBeLessThanOrEqual(20);
    expect(total).toBe(rolls.reduce((sum, roll) => sum + roll, 0));
  });

  it("serves its rules as a resource", async () => {
    const mcp = await client();
    const { result } = await mcp.readResource("dice://rules");
    expect(result.contents[0]).toMatchObject({ uri: "dice://rules", mimeType: "text/markdown" });
  });

  it("fills in its prompt", async () => {
    const mcp = await client();
    const { result } = await mcp.getPrompt("settle_a_dispute", { question: "Who goes first?" });
    expect(JSON.stringify(result.messages)).toContain("Who goes first?");
  });

  it("answers other paths with a pointer to /mcp", async () => {
    const response = await exports.default.fetch("http://localhost/");
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("/mcp");
  });
});
