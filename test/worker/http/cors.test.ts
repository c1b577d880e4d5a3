import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { fixtureEnv as env } from "../fixture-env.ts";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { defineServer, mcpHandler, tool } from "../../../worker/mcp/index.ts";
import { everything } from "../../../worker/servers/everything/index.ts";
import { legacyRequest, mcpRequest } from "../../support/mcp-request.ts";
import { readReply } from "../../support/reply.ts";

import { serve } from "../custom-server.ts";

const preflight = (origin: string, requestHeaders: string) =>
  new Request("http://localhost/mcp/everything", {
    method: "OPTIONS",
    headers: {
      Origin: origin,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": requestHeaders,
    },
  });

describe("Origin checks (DNS rebinding)", () => {
  it.each([
    "http://localhost:5173",
    "http://127.0.0.1:8787",
    "https://localhost",
    "http://[::1]:3000",
  ])("allows the local origin %s", async (origin) => {
    const response = await exports.default.fetch(
      mcpRequest("tools/list", {}, { headers: { Origin: origin } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe(origin);
    expect(response.headers.get("Access-Control-Expose-Headers")).toContain("WWW-Authenticate");
  });

  it("refuses a foreign origin with 403 and says how to allow it", async () => {
    const response = await exports.default.fetch(
      mcpRequest("tools/list", {}, { headers: { Origin: "http://evil.example.com" } }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/ALLOWED_ORIGINS/) },
    });
  });

  it("refuses a page whose Host was rebound to match its Origin", async () => {
    const request = new Request(
      "http://evil.example.com/mcp/everything",
      mcpRequest("tools/list", {}, { headers: { Origin: "http://evil.example.com" } }),
    );
    expect((await exports.default.fetch(request)).status).toBe(403);
  });

  it("allows the Worker's own workers.dev origin", async () => {
    // Deployed, so with a secret of its own (the test secret serves only localhost).
    const deployed = serve(
      everything,
      {},
      { EDGEMCP_SECRET: "a-deployment-secret-that-nobody-has-seen-0123" },
    );
    const request = new Request(
      "https://edgemcp.example.workers.dev/mcp/everything",
      mcpRequest("tools/list", {}, { headers: { Origin: "https://edgemcp.example.workers.dev" } }),
    );
    expect((await deployed.fetch(request)).status).toBe(200);
  });

  it("refuses an origin that is not a URL, or not http(s)", async () => {
    for (const origin of ["null", "file://", "chrome-extension://abc"]) {
      expect(
        (await exports.default.fetch(mcpRequest("tools/list", {}, { headers: { Origin: origin } })))
          .status,
      ).toBe(403);
    }
  });

  it("accepts requests without Origin (non-browser clients)", async () => {
    expect((await exports.default.fetch(mcpRequest("tools/list"))).status).toBe(200);
  });

  it("allows configured origins", async () => {
    const server = serve(
      defineServer({
        name: "o",
        version: "1",
        tools: [tool({ name: "t", description: "T", run: () => "" })],
      }),
      {
        allowedOrigins: ["https://app.example.com"],
      },
    );
    expect(
      (
        await server.fetch(
          mcpRequest("tools/list", {}, { headers: { Origin: "https://app.example.com" } }),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await server.fetch(
          mcpRequest("tools/list", {}, { headers: { Origin: "https://other.example.com" } }),
        )
      ).status,
    ).toBe(403);
  });
});

describe("CORS preflight", () => {
  it("allows the MCP request headers, Mcp-Param-* included", async () => {
    const response = await exports.default.fetch(
      preflight(
        "http://localhost:5173",
        "content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region, authorization",
      ),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("http://localhost:5173");
    expect(response.headers.get("Access-Control-Allow-Methods")).toBe("POST, DELETE, OPTIONS");
    expect(response.headers.get("Access-Control-Allow-Headers")).toBe(
      "content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region, authorization",
    );
  });

  it("allows Mcp-Session-Id, which 2025 clients send after initialize", async () => {
    const response = await exports.default.fetch(
      preflight("http://localhost:5173", "content-type, mcp-protocol-version, mcp-session-id"),
    );
    expect(response.headers.get("Access-Control-Allow-Headers")).toBe(
      "content-type, mcp-protocol-version, mcp-session-id",
    );
  });

  it("lets a browser read the session id a 2025 initialize gives", async () => {
    const response = await exports.default.fetch(
      legacyRequest(
        "initialize",
        {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "b", version: "1" },
        },
        { version: null, headers: { Origin: "http://localhost:5173" } },
      ),
    );
    expect(response.headers.get("Mcp-Session-Id")).not.toBeNull();
    expect(response.headers.get("Access-Control-Expose-Headers")).toContain("Mcp-Session-Id");
  });

  it("leaves out request headers it does not use", async () => {
    const response = await exports.default.fetch(
      preflight("http://localhost:5173", "mcp-method, x-custom-thing"),
    );
    expect(response.headers.get("Access-Control-Allow-Headers")).toBe("mcp-method");
  });

  it("refuses a preflight from a foreign origin", async () => {
    expect(
      (await exports.default.fetch(preflight("https://evil.example.com", "mcp-method"))).status,
    ).toBe(403);
  });
});

describe("mcpHandler, the endpoint without Hono", () => {
  const greeter = defineServer({
    name: "greeter",
    version: "1.0.0",
    tools: [
      tool({
        name: "greet",
        input: z.object({ name: z.string() }),
        run: ({ name }) => `Hi ${name}`,
      }),
    ],
  });
  const handler = mcpHandler(greeter, { allowedOrigins: ["https://app.example.com"] });
  const fetchAt = async (request: Request) => {
    const ctx = createExecutionContext();
    const response = await handler.fetch(request, env, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  };

  it("serves tools/call on whatever path the router hands it, with CORS for an allowed origin", async () => {
    const request = mcpRequest(
      "tools/call",
      { name: "greet", arguments: { name: "Ada" } },
      { server: "some/deep/path", headers: { Origin: "https://app.example.com" } },
    );
    const response = await fetchAt(request);
    expect(response.status).toBe(200);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example.com");
    const reply = await readReply(response, "tools/call");
    expect(reply.final).toMatchObject({ result: { content: [{ type: "text", text: "Hi Ada" }] } });
  });

  it("refuses a foreign origin and non-POST methods", async () => {
    const foreign = await fetchAt(
      mcpRequest("tools/list", {}, { headers: { Origin: "https://evil.example.com" } }),
    );
    expect(foreign.status).toBe(403);
    const get = await fetchAt(
      new Request("http://localhost/", {
        method: "GET",
        headers: { Origin: "https://app.example.com" },
      }),
    );
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("POST, OPTIONS");
    // The browser may read the refusal, since the origin is allowed.
    expect(get.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example.com");
  });

  it("answers an allowed preflight", async () => {
    const response = await fetchAt(preflight("https://app.example.com", "mcp-method, mcp-name"));
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Headers")).toBe("mcp-method, mcp-name");
  });
});
