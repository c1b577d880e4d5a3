import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { defineServer, tool } from "../../../../worker/mcp/index.ts";
import { mcpRequest, modernBody, rawPost } from "../../../support/mcp-request.ts";
import { send } from "../../call.ts";
import { DRAIN_MAX_BYTES } from "../../../../worker/http/body.ts";
import { serve } from "../../custom-server.ts";

const MODERN_HEADERS = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list" };

describe("HTTP framing", () => {
  it.each(["GET", "DELETE", "PUT"])("answers %s with 405 and Allow: POST", async (method) => {
    // (A DELETE carrying a 2025 Mcp-Session-Id ends that session instead: era/legacy.test.ts.)
    const response = await exports.default.fetch(
      new Request("http://localhost/mcp/everything", { method }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST, OPTIONS");
    expect((await response.json<{ error: { message: string } }>()).error.message).toMatch(
      /stateless/,
    );
  });

  it("rejects a body that is not application/json with 415", async () => {
    const request = rawPost("{}", { "Content-Type": "text/plain" });
    const reply = await send(request, "tools/list");
    expect(reply.status).toBe(415);
    expect(reply.final?.error.message).toMatch(/application\/json/);
  });

  it("accepts application/json with a charset parameter", async () => {
    const body = JSON.stringify(modernBody("tools/list"));
    const reply = await send(
      rawPost(body, { ...MODERN_HEADERS, "Content-Type": "application/json; charset=utf-8" }),
      "tools/list",
    );
    expect(reply.status).toBe(200);
  });

  it("rejects an Accept header that allows neither JSON nor SSE with 406", async () => {
    const reply = await send(
      mcpRequest("tools/list", {}, { headers: { Accept: "text/html" } }),
      "tools/list",
    );
    expect(reply.status).toBe(406);
    expect(reply.final?.error.message).toMatch(/Accept/);
  });

  it("treats a missing Accept header as accepting anything", async () => {
    const reply = await send(
      mcpRequest("tools/list", {}, { headers: { Accept: null } }),
      "tools/list",
    );
    expect(reply.status).toBe(200);
  });

  it("rejects a declared Content-Length over the limit with 413 before reading", async () => {
    const request = new Request("http://localhost/mcp/everything", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": String(5 * 1024 * 1024) },
      body: "{}",
    });
    const reply = await send(request, "tools/list");
    expect(reply.status).toBe(413);
    expect(reply.final?.error.message).toMatch(/1048576-byte limit/);
  });

  it("stops reading a streamed body once it passes the limit and a bounded drain (413)", async () => {
    let pulled = 0;
    const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        // An endless body: only a reader that stops early lets this test finish.
        controller.enqueue(chunk);
      },
    });
    const request = new Request("http://localhost/mcp/everything", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    const reply = await send(request, "tools/list");
    expect(reply.status).toBe(413);
    // Read on past the limit only so far that its client can read the 413 (over TCP).
    expect(pulled * chunk.byteLength).toBeGreaterThan(1024 * 1024);
    expect(pulled * chunk.byteLength).toBeLessThanOrEqual(DRAIN_MAX_BYTES + 2 * chunk.byteLength);
  });

  it("reads nothing of a body whose declared length is beyond the drain (413 at once)", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const request = new Request("http://localhost/mcp/everything", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "Content-Length": String(DRAIN_MAX_BYTES + 1),
      },
      body,
      duplex: "half",
    } as RequestInit);
    const reply = await send(request, "tools/list");
    expect(reply.status).toBe(413);
    expect(pulled).toBeLessThan(3);
  });

  it("answers malformed JSON with -32700 and 400", async () => {
    const reply = await send(rawPost("{not json", MODERN_HEADERS), "tools/list");
    expect(reply.status).toBe(400);
    expect(reply.final?.error.code).toBe(-32700);
    expect(reply.final?.id).toBeNull();
  });

  it("answers invalid UTF-8 with -32700", async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]);
    const request = new Request("http://localhost/mcp/everything", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: bytes,
    });
    const reply = await send(request, "tools/list");
    expect(reply.final?.error.code).toBe(-32700);
  });

  it("rejects a batch array with -32600 and 400", async () => {
    const body = JSON.stringify([modernBody("tools/list"), modernBody("prompts/list")]);
    const reply = await send(rawPost(body, MODERN_HEADERS), "tools/list");
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/Batch/),
    });
  });

  it.each([
    ["a non-object body", "42", /JSON-RPC 2.0 object/],
    ["a wrong jsonrpc version", '{"jsonrpc":"1.0","id":1,"method":"tools/list"}', /"2.0"/],
    ["a null id", '{"jsonrpc":"2.0","id":null,"method":"tools/list"}', /null is not allowed/],
    ["a non-string method", '{"jsonrpc":"2.0","id":1,"method":5}', /non-empty string/],
    ["array params", '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[]}', /"params"/],
    ["no method and no result", '{"jsonrpc":"2.0","id":1}', /no "method"/],
  ])("rejects %s with -32600", async (_name, body, message) => {
    const reply = await send(rawPost(body, MODERN_HEADERS), "tools/list");
    expect(reply.status).toBe(400);
    expect(reply.final?.error.code).toBe(-32600);
    expect(reply.final?.error.message).toMatch(message);
  });

  it("echoes the id of an invalid request it could read", async () => {
    const reply = await send(
      rawPost('{"jsonrpc":"1.0","id":"abc","method":"tools/list"}', MODERN_HEADERS),
      "tools/list",
    );
    expect(reply.final?.id).toBe("abc");
  });

  it("accepts a notification with 202 and no body", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 1 },
    });
    const response = await exports.default.fetch(
      rawPost(body, { "MCP-Protocol-Version": "2026-07-28" }),
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it("refuses a JSON-RPC response, since it never sends requests", async () => {
    const reply = await send(
      rawPost('{"jsonrpc":"2.0","id":1,"result":{}}', MODERN_HEADERS),
      "tools/list",
    );
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32600,
      message: "This response answers no request this server sent.",
    });
  });

  it("refuses an answer to a server request where no rendezvous object is bound", async () => {
    const server = serve(
      defineServer({ name: "plain", version: "1", tools: [tool({ name: "t", run: () => "" })] }),
    );
    const body = JSON.stringify({ jsonrpc: "2.0", id: "edgemcp:1234", result: { roots: [] } });
    const reply = await server.send(rawPost(body, MODERN_HEADERS, "plain"), "tools/list");
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32600,
      message: "This response answers no request this server sent.",
    });
  });

  it("ignores Mcp-Session-Id and Last-Event-ID and never echoes them", async () => {
    const reply = await send(
      mcpRequest("tools/list", {}, { headers: { "Mcp-Session-Id": "abc", "Last-Event-ID": "7" } }),
      "tools/list",
    );
    expect(reply.status).toBe(200);
    expect(reply.headers.get("Mcp-Session-Id")).toBeNull();
  });

  it("answers an unknown server path with a plain 404 naming the servers", async () => {
    const response = await exports.default.fetch(mcpRequest("tools/list", {}, { server: "nope" }));
    expect(response.status).toBe(404);
    expect(await response.text()).toMatch(/No MCP server at \/mcp\/nope.*\/mcp\/everything/);
  });
});

describe("Mcp-Name", () => {
  it.each([
    ["a base64 payload of invalid length", "=?base64?dGVzdA?=", "invalid length"],
    ["a base64 payload that is not UTF-8", "=?base64?/w==?=", "not valid UTF-8"],
  ])("refuses %s with -32020 and 400", async (_what, header, reason) => {
    const reply = await send(
      mcpRequest(
        "tools/call",
        { name: "test", arguments: {} },
        { headers: { "Mcp-Name": header } },
      ),
      "tools/call",
    );
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32020,
      message: expect.stringMatching(new RegExp(`^Header mismatch: Mcp-Name .*${reason}`)),
    });
  });
});
