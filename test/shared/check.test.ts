import { describe, expect, it } from "vitest";
import { checkHttpReply, checkRequest, checkServerMessage } from "../../shared/check/index.ts";

const modernMeta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const headers = {
  "MCP-Protocol-Version": "2026-07-28",
  "Mcp-Method": "tools/call",
  "Mcp-Name": "add",
};
const call = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "add", _meta: modernMeta },
};
const rules = (findings: { rule: string }[]) => findings.map((f) => f.rule);
const modern = { method: "tools/call", requestId: 1, era: "modern" as const };

describe("checkRequest", () => {
  it("accepts a 2026 request whose headers mirror its body", () => {
    expect(checkRequest(call, headers)).toEqual([]);
  });

  it("flags routing headers that disagree with the body", () => {
    expect(
      rules(checkRequest(call, { ...headers, "Mcp-Name": "other", "Mcp-Method": "tools/list" })),
    ).toEqual(["header.mcp-method", "header.mcp-name"]);
  });

  it("decodes a base64 Mcp-Name before comparing", () => {
    const body = { ...call, params: { ...call.params, name: "ünï" } };
    expect(checkRequest(body, { ...headers, "Mcp-Name": "=?base64?w7xuw68=?=" })).toEqual([]);
  });

  it("flags a 2026 request without the required _meta keys", () => {
    const body = {
      ...call,
      params: { name: "add", _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
    };
    expect(rules(checkRequest(body, headers))).toEqual(["request.meta"]);
  });
});

describe("checkServerMessage", () => {
  it("accepts a complete tool result for the request's id", () => {
    const message = {
      jsonrpc: "2.0",
      id: 1,
      result: { resultType: "complete", content: [{ type: "text", text: "5" }] },
    };
    expect(checkServerMessage(message, modern)).toEqual([]);
  });

  it("flags a 2026 result without resultType, or with an unknown one", () => {
    expect(
      rules(checkServerMessage({ jsonrpc: "2.0", id: 1, result: { content: [] } }, modern)),
    ).toEqual(["result.result-type"]);
    expect(
      rules(
        checkServerMessage(
          { jsonrpc: "2.0", id: 1, result: { resultType: "later", content: [] } },
          modern,
        ),
      ),
    ).toEqual(["result.result-type"]);
  });

  it("flags a content block of the wrong shape with its path", () => {
    const findings = checkServerMessage(
      { jsonrpc: "2.0", id: 1, result: { resultType: "complete", content: [{ type: "text" }] } },
      modern,
    );
    expect(findings[0]?.rule).toBe("result.shape");
    expect(findings[0]?.message).toContain("content.0");
  });

  it("requires cache hints on complete list results", () => {
    const message = { jsonrpc: "2.0", id: 2, result: { resultType: "complete", tools: [] } };
    expect(
      rules(checkServerMessage(message, { method: "tools/list", requestId: 2, era: "modern" })),
    ).toEqual(["result.cache-hint", "result.cache-hint"]);
  });

  it("allows input_required only where MRTR is allowed", () => {
    const message = {
      jsonrpc: "2.0",
      id: 1,
      result: { resultType: "input_required", requestState: "x" },
    };
    expect(checkServerMessage(message, modern)).toEqual([]);
    expect(
      rules(
        checkServerMessage(
          { ...message, id: 3 },
          { method: "tools/list", requestId: 3, era: "modern" },
        ),
      ),
    ).toEqual(["result.input-required"]);
  });

  it("flags a response to another id, and server requests on a 2026 stream", () => {
    expect(rules(checkServerMessage({ jsonrpc: "2.0", id: 9, result: {} }, modern))).toEqual([
      "message.id",
    ]);
    expect(
      rules(checkServerMessage({ jsonrpc: "2.0", id: 5, method: "roots/list" }, modern)),
    ).toEqual(["message.server-request"]);
  });

  it("accepts the same requests from a 2025 server", () => {
    expect(
      checkServerMessage(
        { jsonrpc: "2.0", id: 5, method: "roots/list" },
        { ...modern, era: "legacy" },
      ),
    ).toEqual([]);
  });

  it("accepts a 2025 task-augmented call's task, and checks its shape", () => {
    const legacy = { ...modern, era: "legacy" as const };
    const task = { taskId: "t1", status: "working", ttl: 60000, pollInterval: 1000 };
    expect(checkServerMessage({ jsonrpc: "2.0", id: 1, result: { task } }, legacy)).toEqual([]);
    expect(
      rules(
        checkServerMessage({ jsonrpc: "2.0", id: 1, result: { task: { taskId: "t1" } } }, legacy),
      ),
    ).toEqual(["result.shape"]);
  });

  it("flags retired error codes and a -32601 without HTTP 404", () => {
    expect(
      rules(
        checkServerMessage(
          { jsonrpc: "2.0", id: 1, error: { code: -32002, message: "gone" } },
          modern,
        ),
      ),
    ).toEqual(["error.code"]);
    expect(
      rules(
        checkServerMessage(
          { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "no" } },
          { ...modern, status: 200 },
        ),
      ),
    ).toEqual(["error.status"]);
  });

  it("requires the subscription id on listen stream notifications", () => {
    const context = { method: "subscriptions/listen", requestId: 7, era: "modern" as const };
    expect(
      rules(
        checkServerMessage({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }, context),
      ),
    ).toEqual(["listen.subscription-id"]);
    const tagged = {
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": 7 } },
    };
    expect(checkServerMessage(tagged, context)).toEqual([]);
  });

  it("checks progress notifications' shape", () => {
    expect(
      checkServerMessage(
        {
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: 1, progress: 2 },
        },
        modern,
      ),
    ).toEqual([]);
    expect(
      rules(
        checkServerMessage(
          { jsonrpc: "2.0", method: "notifications/progress", params: { progress: "2" } },
          modern,
        ),
      ),
    ).toContain("notification.shape");
  });
});

describe("checkHttpReply", () => {
  it("wants JSON or SSE for requests and 202 for notifications", () => {
    expect(
      checkHttpReply(
        200,
        { "Content-Type": "application/json" },
        { era: "modern", notification: false },
      ),
    ).toEqual([]);
    expect(
      rules(
        checkHttpReply(
          200,
          { "Content-Type": "text/html" },
          { era: "modern", notification: false },
        ),
      ),
    ).toEqual(["http.content-type"]);
    expect(rules(checkHttpReply(200, {}, { era: "modern", notification: true }))).toEqual([
      "http.notification",
    ]);
  });

  it("flags a session id from a 2026 server", () => {
    expect(
      rules(
        checkHttpReply(
          200,
          { "content-type": "application/json", "mcp-session-id": "s" },
          { era: "modern", notification: false },
        ),
      ),
    ).toEqual(["http.session"]);
  });
});
