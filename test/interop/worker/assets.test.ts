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

  it("lists its MCP endpoints at /api/servers, by name, never a remote upstream's URL", async () => {
    const response = await fetch(`${inject("workerUrl")}/api/servers`);
    expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
    const text = await response.text();
    const { endpoints } = JSON.parse(text) as {
      endpoints: { path: string; upstreams?: string[] }[];
    };
    expect(endpoints.map((e) => e.path)).toEqual([
      "/mcp",
      "/mcp/everything",
      "/mcp/analytics",
      "/mcp/notes",
      "/mcp/ops",
    ]);
    expect(endpoints[0]?.upstreams).toEqual(["everything", "analytics", "notes", "ops", "ext"]);
    expect(text).not.toContain(inject("sdkServerUrl"));
  });

  it("serves the page with a Content-Security-Policy that allows no inline or eval'd script", async () => {
    const csp =
      (await fetch(`${inject("workerUrl")}/`)).headers.get("Content-Security-Policy") ?? "";
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("object-src 'none'");
  });
});
