import { describe, expect, it } from "vitest";
import { MetaKey } from "../../../../shared/protocol/meta.ts";
import { rawPost } from "../../../support/mcp-request.ts";
import { call, send } from "../../call.ts";

describe("the _meta envelope of a 2026-07-28 request", () => {
  it("is required: params without _meta get -32602 and 400", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 101, method: "server/discover", params: {} });
    const reply = await send(
      rawPost(body, { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover" }),
      "server/discover",
    );
    expect(reply.status).toBe(400);
    expect(reply.final).toMatchObject({
      id: 101,
      error: { code: -32602, message: expect.stringMatching(/_meta/) },
    });
  });

  it("needs the protocol version key, even when the header is present", async () => {
    const reply = await call("server/discover", {}, { meta: { [MetaKey.protocolVersion]: null } });
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/protocolVersion/),
    });
  });

  it("needs the client capabilities key ({} when there are none)", async () => {
    const reply = await call(
      "server/discover",
      {},
      { meta: { [MetaKey.clientCapabilities]: null } },
    );
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/clientCapabilities/),
    });
  });

  it.each([
    [
      "client capabilities that are not an object",
      { [MetaKey.clientCapabilities]: "all" },
      /capabilities object/,
    ],
    [
      "client capabilities with a malformed known member",
      { [MetaKey.clientCapabilities]: { sampling: { tools: "yes" } } },
      /capabilities object/,
    ],
    [
      "client capabilities whose extension is not an object",
      { [MetaKey.clientCapabilities]: { extensions: { "io.x/y": true } } },
      /capabilities object/,
    ],
    ["clientInfo without a version", { [MetaKey.clientInfo]: { name: "x" } }, /clientInfo/],
    ["clientInfo that is not an object", { [MetaKey.clientInfo]: "x/1" }, /clientInfo/],
    [
      "clientInfo with a malformed icon",
      { [MetaKey.clientInfo]: { name: "x", version: "1", icons: [{ src: "i", theme: "blue" }] } },
      /clientInfo/,
    ],
    ["an unknown log level", { [MetaKey.logLevel]: "verbose" }, /logLevel/],
    [
      "a progress token that is neither string nor number",
      { progressToken: { a: 1 } },
      /progressToken/,
    ],
  ])("rejects %s with -32602", async (_what, meta, message) => {
    const reply = await call("tools/list", {}, { meta });
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(message),
    });
  });

  it("tolerates capability keys it does not know", async () => {
    const reply = await call(
      "tools/list",
      {},
      { capabilities: { roots: { listChanged: true }, futureThing: {} } },
    );
    expect(reply.status).toBe(200);
  });
});

describe("protocol versions", () => {
  it("answers an unsupported version with -32022, the supported list and the requested one", async () => {
    const reply = await call(
      "server/discover",
      {},
      {
        meta: { [MetaKey.protocolVersion]: "v999.0.0" },
        headers: { "MCP-Protocol-Version": "v999.0.0" },
      },
    );
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32022,
      data: {
        supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
        requested: "v999.0.0",
      },
    });
  });

  it("refuses a 2025 version sent in the 2026 envelope, pointing at initialize", async () => {
    const reply = await call(
      "tools/list",
      {},
      {
        meta: { [MetaKey.protocolVersion]: "2025-11-25" },
        headers: { "MCP-Protocol-Version": "2025-11-25" },
      },
    );
    expect(reply.final?.error).toMatchObject({
      code: -32022,
      message: expect.stringMatching(/through initialize/),
    });
  });
});

describe("methods", () => {
  it.each([
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
    "unknown/method",
  ])("answers %s, which 2026-07-28 does not have, with 404 and -32601", async (method) => {
    const reply = await call(method, {}, { id: 500 });
    expect(reply.status).toBe(404);
    expect(reply.final).toMatchObject({
      id: 500,
      error: { code: -32601, message: expect.stringContaining(method) },
    });
  });

  it("refuses a tool that needs an undeclared client capability with -32021 and 400", async () => {
    const reply = await call("tools/call", { name: "test_missing_capability", arguments: {} });
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  it("runs that tool once the capability is declared", async () => {
    const reply = await call(
      "tools/call",
      { name: "test_missing_capability", arguments: {} },
      { capabilities: { sampling: {} } },
    );
    expect(reply.final?.result.content).toEqual([{ type: "text", text: "Success" }]);
  });
});
