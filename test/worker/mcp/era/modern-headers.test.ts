import { describe, expect, it } from "vitest";
import { encodeHeaderValue } from "../../../../shared/protocol/headers.ts";
import { call } from "../../call.ts";

const region = (
  value: string,
  headers: Record<string, string | null> = {},
  args: Record<string, unknown> = {},
) =>
  call(
    "tools/call",
    { name: "test_x_mcp_header", arguments: { region: value, ...args } },
    { headers: { "Mcp-Param-Region": encodeHeaderValue(value), ...headers } },
  );

describe("standard headers must agree with the body (-32020, HTTP 400)", () => {
  it("rejects a request without MCP-Protocol-Version", async () => {
    const reply = await call("tools/list", {}, { headers: { "MCP-Protocol-Version": null } });
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32020,
      message: expect.stringMatching(/MCP-Protocol-Version header is required/),
    });
  });

  it("rejects an MCP-Protocol-Version that differs from _meta, before judging the version", async () => {
    const reply = await call(
      "server/discover",
      {},
      { meta: { "io.modelcontextprotocol/protocolVersion": "v999.0.0" } },
    );
    expect(reply.status).toBe(400);
    expect(reply.final?.error.code).toBe(-32020);
  });

  it("rejects a request without Mcp-Method", async () => {
    const reply = await call("tools/list", {}, { headers: { "Mcp-Method": null } });
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32020,
      message: expect.stringMatching(/Mcp-Method header is required/),
    });
  });

  it("rejects an Mcp-Method naming another method", async () => {
    const reply = await call("tools/list", {}, { headers: { "Mcp-Method": "prompts/list" } });
    expect(reply.final?.error).toMatchObject({
      code: -32020,
      message: expect.stringMatching(/"prompts\/list" does not match/),
    });
  });

  it("compares header values case-sensitively", async () => {
    const reply = await call("tools/list", {}, { headers: { "Mcp-Method": "TOOLS/LIST" } });
    expect(reply.final?.error.code).toBe(-32020);
  });

  it("matches header names case-insensitively", async () => {
    const reply = await call(
      "tools/list",
      {},
      { headers: { "Mcp-Method": null, "MCP-METHOD": "tools/list" } },
    );
    expect(reply.status).toBe(200);
  });

  it("trims surrounding whitespace from header values", async () => {
    const reply = await call(
      "tools/call",
      { name: "test_simple_text" },
      { headers: { "Mcp-Name": "  test_simple_text  " } },
    );
    expect(reply.status).toBe(200);
    expect(reply.final?.result.content[0].text).toMatch(/simple text/);
  });

  it.each(["tools/call", "prompts/get", "resources/read"])(
    "requires Mcp-Name on %s",
    async (method) => {
      const params =
        method === "resources/read"
          ? { uri: "test://static-text" }
          : { name: method === "tools/call" ? "test_simple_text" : "test_simple_prompt" };
      const reply = await call(method, params, { headers: { "Mcp-Name": null } });
      expect(reply.status).toBe(400);
      expect(reply.final?.error).toMatchObject({
        code: -32020,
        message: expect.stringMatching(/Mcp-Name header is required/),
      });
    },
  );

  it("rejects an Mcp-Name naming another tool", async () => {
    const reply = await call(
      "tools/call",
      { name: "test_simple_text" },
      { headers: { "Mcp-Name": "wrong_tool_name" } },
    );
    expect(reply.final?.error).toMatchObject({
      code: -32020,
      message: expect.stringMatching(/"wrong_tool_name" does not match/),
    });
  });

  it("decodes a base64-wrapped Mcp-Name before comparing", async () => {
    const reply = await call(
      "tools/call",
      { name: "test_simple_text" },
      { headers: { "Mcp-Name": `=?base64?${btoa("test_simple_text")}?=` } },
    );
    expect(reply.status).toBe(200);
  });

  it("compares the decoded Mcp-Name exactly", async () => {
    const reply = await call(
      "tools/call",
      { name: "test_simple_text" },
      { headers: { "Mcp-Name": `=?base64?${btoa("test_simple_tex")}?=` } },
    );
    expect(reply.final?.error.code).toBe(-32020);
  });
});

describe("Mcp-Param-* headers from x-mcp-header arguments", () => {
  it("accepts a plain value that matches the argument", async () => {
    const reply = await region("us-west1");
    expect(reply.final?.result.content[0].text).toBe("region=us-west1 priority=- urgent=-");
  });

  it.each([" padded ", "Hello, 世界", "line1\nline2", "=?base64?literal?=", ""])(
    "accepts %j sent base64-wrapped",
    async (value) => {
      const reply = await region(value);
      expect(reply.status).toBe(200);
      expect(reply.final?.result.content[0].text).toBe(`region=${value} priority=- urgent=-`);
    },
  );

  it("takes a value that only looks like base64 without the full sentinel literally", async () => {
    const reply = await region("=?base64?SGVsbG8=");
    expect(reply.status).toBe(200);
  });

  it("rejects a missing header when the argument is in the body", async () => {
    const reply = await region("us-west1", { "Mcp-Param-Region": null });
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32020,
      message: expect.stringMatching(/Mcp-Param-Region is required/),
    });
  });

  it("rejects a header that differs from the argument", async () => {
    const reply = await region("us-west1", { "Mcp-Param-Region": "eu-central1" });
    expect(reply.final?.error).toMatchObject({
      code: -32020,
      message: expect.stringMatching(/does not match argument "region"/),
    });
  });

  it.each([
    ["bad padding", "=?base64?SGVsbG8?=", "has a base64 payload of invalid length"],
    ["invalid UTF-8 inside", "=?base64?/w==?=", "has a base64 payload that is not valid UTF-8"],
  ])("rejects base64 with %s as undecodable", async (_why, header, reason) => {
    const reply = await region("Hello", { "Mcp-Param-Region": header });
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32020,
      message: `Header mismatch: Mcp-Param-Region ${reason}.`,
    });
  });

  it("rejects base64 with bad characters", async () => {
    const reply = await region("Hello", { "Mcp-Param-Region": "=?base64?SGVs!!!bG8=?=" });
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32020,
      message:
        "Header mismatch: Mcp-Param-Region has a base64 payload with characters outside the base64 alphabet.",
    });
  });

  it("compares integers numerically", async () => {
    const reply = await region("x", { "Mcp-Param-Priority": "42.0" }, { priority: 42 });
    expect(reply.final?.result.content[0].text).toBe("region=x priority=42 urgent=-");
  });

  it("rejects an integer header with a different value", async () => {
    const reply = await region("x", { "Mcp-Param-Priority": "41" }, { priority: 42 });
    expect(reply.final?.error.code).toBe(-32020);
  });

  it("compares booleans as true/false", async () => {
    expect((await region("x", { "Mcp-Param-Urgent": "true" }, { urgent: true })).status).toBe(200);
    expect(
      (await region("x", { "Mcp-Param-Urgent": "True" }, { urgent: true })).final?.error.code,
    ).toBe(-32020);
  });

  it("does not expect a header for a null or absent argument", async () => {
    // The header check lets it through; the input schema then refuses null (SEP-1303: isError).
    const reply = await region("x", {}, { priority: null });
    expect(reply.final?.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringMatching(/arguments\.priority/) }],
    });
    expect((await region("x")).status).toBe(200);
  });

  it("rejects a header whose argument is absent from the body", async () => {
    const reply = await region("x", { "Mcp-Param-Priority": "3" });
    expect(reply.final?.error).toMatchObject({
      code: -32020,
      message: expect.stringMatching(/absent from the body/),
    });
  });
});
