import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bearerTokens, defineServer, tool } from "../../../worker/mcp/index.ts";
import { legacyRequest, mcpRequest } from "../../support/mcp-request.ts";
import { call, send } from "../call.ts";
import { serve } from "../custom-server.ts";

const ALICE = { Authorization: "Bearer token-alice" };
const METADATA = "http://localhost/.well-known/oauth-protected-resource";

/** A 2026 request to the hub at /mcp. */
function hub(
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const request = mcpRequest(method, params, { headers });
  return send(new Request("http://localhost/mcp", request), method);
}

const names = (tools: unknown): string[] =>
  (tools as { name: string }[]).map((tool) => tool.name).sort();

describe("fail closed: the example servers, with API_TOKENS set", () => {
  it("lets an anonymous caller list only the read-only tools, in a private list", async () => {
    const reply = await call("tools/list", {}, { server: "notes" });
    expect(reply.status).toBe(200);
    expect(names(reply.final?.result.tools)).toEqual(["search_notes"]);
    expect(reply.final?.result.cacheScope).toBe("private");
    const alice = await call("tools/list", {}, { server: "notes", headers: ALICE });
    expect(names(alice.final?.result.tools)).toEqual([
      "create_note",
      "delete_note",
      "edit_note",
      "search_notes",
    ]);
  });

  it("lets an anonymous caller call a read-only tool", async () => {
    const reply = await call(
      "tools/call",
      { name: "search_notes", arguments: { query: "x" } },
      {
        server: "notes",
      },
    );
    expect(reply.status).toBe(200);
    expect(reply.final?.result.isError).toBeFalsy();
  });

  it.each([
    ["notes", "create_note", { title: "t", body: "b" }],
    ["notes", "delete_note", { id: 1 }],
    ["ops", "deploy_release", { version: "1.0.0", environment: "staging" }],
    ["ops", "run_build", { target: "web" }],
  ])(
    "answers an anonymous %s %s with 401 and the metadata challenge",
    async (server, name, args) => {
      const reply = await call("tools/call", { name, arguments: args }, { server });
      expect(reply.status).toBe(401);
      expect(reply.headers.get("WWW-Authenticate")).toBe(
        `Bearer resource_metadata="${METADATA}/mcp/${server}"`,
      );
      expect(reply.final?.error.message).toMatch(/needs a bearer token.*readOnlyHint/);
    },
  );

  it("lets an anonymous call of a tool that does not exist get its own error", async () => {
    const reply = await call(
      "tools/call",
      { name: "no_such_tool", arguments: {} },
      {
        server: "notes",
      },
    );
    expect(reply.final?.error).toMatchObject({ code: -32602 });
  });

  it("decides on the 2026 routing headers before reading the body", async () => {
    const request = new Request("http://localhost/mcp/notes", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "delete_note",
      },
      body: "{ not even JSON",
    });
    const response = await exports.default.fetch(request);
    expect(response.status).toBe(401);
    expect(response.bodyUsed).toBe(false);
  });

  it("decides a 2025 request on its body, whatever its headers claim", async () => {
    const request = legacyRequest(
      "tools/call",
      { name: "delete_note", arguments: { id: 1 } },
      { server: "notes" },
    );
    request.headers.set("Mcp-Method", "tools/list");
    const reply = await send(request, "tools/call", "2025");
    expect(reply.status).toBe(401);
    const liar = mcpRequest(
      "tools/call",
      { name: "delete_note", arguments: { id: 1 } },
      {
        server: "notes",
        headers: { "Mcp-Name": "search_notes" },
      },
    );
    // A 2026 body that disagrees with its headers is refused as such, and nothing runs.
    expect((await send(liar, "tools/call")).status).toBe(400);
  });

  it("runs the same tool for a caller with a token", async () => {
    const reply = await call(
      "tools/call",
      { name: "create_note", arguments: { title: "Mine", body: "b" } },
      {
        server: "notes",
        headers: ALICE,
      },
    );
    expect(reply.status).toBe(200);
    expect(reply.final?.result.isError).toBeFalsy();
  });

  it("refuses an unknown token and another scheme with 401 and the error code", async () => {
    const bad = await call(
      "tools/list",
      {},
      { server: "notes", headers: { Authorization: "Bearer nope" } },
    );
    expect(bad.status).toBe(401);
    expect(bad.headers.get("WWW-Authenticate")).toBe(
      `Bearer resource_metadata="${METADATA}/mcp/notes", error="invalid_token"`,
    );
    const basic = await call(
      "tools/list",
      {},
      {
        server: "notes",
        headers: { Authorization: "Basic YWxpY2U6c2VjcmV0" },
      },
    );
    expect(basic.status).toBe(401);
    expect(basic.headers.get("WWW-Authenticate")).toBe(
      `Bearer resource_metadata="${METADATA}/mcp/notes", error="invalid_request"`,
    );
    expect(basic.final?.error.message).toBe("The Authorization header must be `Bearer <token>`.");
  });

  it("lets anonymous callers do everything on /mcp/everything, as configured", async () => {
    const reply = await call("tools/call", { name: "test_simple_text", arguments: {} });
    expect(reply.status).toBe(200);
  });
});

describe("the hub applies the same rules to prefixed names", () => {
  it("shows an anonymous caller only the read-only tools, and alice all of them", async () => {
    const anonymous = names((await hub("tools/list", {})).final?.result.tools);
    expect(anonymous).toContain("notes__search_notes");
    expect(anonymous).not.toContain("notes__create_note");
    expect(anonymous).not.toContain("ops__deploy_release");
    const alice = names((await hub("tools/list", {}, ALICE)).final?.result.tools);
    expect(alice).toContain("notes__create_note");
    expect(alice).toContain("ops__deploy_release");
  });

  it("answers an anonymous notes__delete_note with 401 and runs alice's", async () => {
    const args = { name: "notes__delete_note", arguments: { id: 999_999 } };
    const anonymous = await hub("tools/call", args);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("WWW-Authenticate")).toBe(
      `Bearer resource_metadata="${METADATA}/mcp"`,
    );
    const alice = await hub("tools/call", args, ALICE);
    expect(alice.status).toBe(200);
  });
});

describe("RFC 9728 metadata", () => {
  it("serves each endpoint's document, readable from any origin", async () => {
    for (const path of ["/mcp", "/mcp/notes"]) {
      const response = await exports.default.fetch(
        new Request(`${METADATA}${path}`, { headers: { Origin: "https://elsewhere.example" } }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(await response.json()).toMatchObject({
        resource: `http://localhost${path}`,
        bearer_methods_supported: ["header"],
      });
    }
  });

  it("has no document for a server that does not exist", async () => {
    const response = await exports.default.fetch(new Request(`${METADATA}/mcp/nope`));
    expect(response.status).toBe(404);
  });
});

describe("anonymous access of a custom endpoint", () => {
  const definition = defineServer({
    name: "guarded",
    version: "1",
    tools: [
      tool({ name: "look", annotations: { readOnlyHint: true }, run: () => "seen" }),
      tool({ name: "touch", run: () => "touched" }),
    ],
  });
  const authenticate = bearerTokens({ variable: "API_TOKENS" });

  it("refuses every request without a token by default, before reading the body", async () => {
    const server = serve(definition, { authenticate });
    const response = await server.fetch(
      new Request("http://localhost/mcp/guarded", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: "garbage",
      }),
    );
    expect(response.status).toBe(401);
    // serve() hands the app its root path, as app.route() would: the document of "/".
    expect(response.headers.get("WWW-Authenticate")).toBe(`Bearer resource_metadata="${METADATA}"`);
    expect(await response.json()).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/needs a bearer token/) },
    });
  });

  it("lets everyone in when no credential is configured at all", async () => {
    const server = serve(definition, { authenticate }, { API_TOKENS: "" });
    const reply = await server.send(
      mcpRequest("tools/call", { name: "touch", arguments: {} }, { server: "guarded" }),
      "tools/call",
    );
    expect(reply.status).toBe(200);
  });

  it("treats an authenticate function without `configured` as configured", async () => {
    const server = serve(definition, { authenticate: () => undefined, anonymous: "read-only" });
    const touch = await server.send(
      mcpRequest("tools/call", { name: "touch", arguments: {} }, { server: "guarded" }),
      "tools/call",
    );
    expect(touch.status).toBe(401);
    const look = await server.send(
      mcpRequest("tools/call", { name: "look", arguments: {} }, { server: "guarded" }),
      "tools/call",
    );
    expect(look.status).toBe(200);
  });
});
