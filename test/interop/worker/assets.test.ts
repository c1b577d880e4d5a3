import { describe, expect, inject, it } from "vitest";

describe("the Worker's static assets", () => {
  it("serves the playground page at /", async () => {
    const response = await fetch(`${inject("workerUrl")}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/text\/html/);
    expect(await response.text()).toMatch(/<h1>edgemcp<\/h1>/);
  });

  it("answers a GET on an MCP endpoint with 405, not an asset", async () => {
    const response = await fetch(`${inject("workerUrl")}/mcp/everything`);
    expect(response.status).toBe(405);
  });
});
