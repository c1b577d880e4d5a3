import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { durableObjects } from "../../../../worker/durable/index.ts";
import { defineServer, elicitUrl, tool, inputRounds } from "../../../../worker/mcp/index.ts";
import { legacyRequest } from "../../../support/mcp-request.ts";
import { send } from "../../call.ts";
import { serve } from "../../custom-server.ts";

type Version = "2025-11-25" | "2025-06-18" | "2025-03-26";

/** A 2025 handshake declaring `capabilities`: the session id its reply gives. */
async function session(version: Version, capabilities: Record<string, unknown>): Promise<string> {
  const reply = await send(
    legacyRequest(
      "initialize",
      { protocolVersion: version, capabilities, clientInfo: { name: "old", version: "1" } },
      { version: null },
    ),
    "initialize",
    "2025",
  );
  expect(reply.final?.result.protocolVersion).toBe(version);
  const id = reply.headers.get("Mcp-Session-Id");
  if (id === null) throw new Error("initialize gave no session id");
  return id;
}

/** A tool call in `sessionId`'s session, speaking `version`. */
function callTool(version: Version, sessionId: string, name: string, args = {}) {
  return send(
    legacyRequest(
      "tools/call",
      { name, arguments: args },
      { version, headers: { "Mcp-Session-Id": sessionId } },
    ),
    "tools/call",
    "2025",
  );
}

/** What a 2026 call gets for the same tool without the capability: the error 2025 gets too. */
function undeclared(method: string, requiredCapabilities: Record<string, unknown>) {
  return {
    code: -32021,
    message: `This request needs to send ${method}, which the client did not declare (requiredCapabilities ${JSON.stringify(requiredCapabilities)}).`,
    data: { requiredCapabilities },
  };
}

const ASKS = [
  ["test_elicitation", { message: "Name?" }, "elicitation/create", { elicitation: {} }],
  ["test_sampling", { prompt: "Hi" }, "sampling/createMessage", { sampling: {} }],
  ["test_input_required_result_list_roots", {}, "roots/list", { roots: {} }],
] as const;

describe("a 2025 client is asked only for what its initialize declared", () => {
  it("gets a session id that carries what it declared, a letter for each kind of input", async () => {
    const all = { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} };
    expect(await session("2025-11-25", all)).toMatch(/^[A-Za-z0-9_-]{22}\.eustr$/);
    expect(await session("2025-11-25", { elicitation: {} })).toMatch(/\.e$/);
    expect(await session("2025-11-25", {})).toMatch(/\.$/);
    // Capabilities that are not well formed declare nothing; the handshake still succeeds.
    expect(await session("2025-11-25", { roots: {}, sampling: { tools: "yes" } })).toMatch(/\.$/);
    // Declared beyond its revision: only what the revision has.
    expect(await session("2025-03-26", all)).toMatch(/\.sr$/);
  });

  it.each(ASKS)(
    "%s, to a client that declared nothing: -32021 and no request on the stream",
    async (tool, args, method, need) => {
      const id = await session("2025-11-25", {});
      const reply = await callTool("2025-11-25", id, tool, args);
      expect(reply.messages.filter((m) => m.method === method)).toEqual([]);
      expect(reply.final?.error).toEqual(undeclared(method, need));
    },
  );

  it("sends the request to a client that declared the capability", async () => {
    const id = await session("2025-11-25", { elicitation: {} });
    const reply = await exports.default.fetch(
      legacyRequest(
        "tools/call",
        { name: "test_elicitation", arguments: { message: "Name?" } },
        { headers: { "Mcp-Session-Id": id } },
      ),
    );
    const reader = reply.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('"method":"elicitation/create"');
    await reader.cancel();
  });

  it("refuses a tool that needs sampling to a session without it, as a 2026 call is refused", async () => {
    const without = await session("2025-11-25", { elicitation: {} });
    const refused = await callTool("2025-11-25", without, "test_missing_capability");
    expect(refused.final?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
    const withIt = await session("2025-11-25", { sampling: {} });
    const served = await callTool("2025-11-25", withIt, "test_missing_capability");
    expect(served.final?.result.content).toEqual([{ type: "text", text: "Success" }]);
  });
});

describe("each 2025 revision is asked only what it defines", () => {
  it("never sends elicitation/create to 2025-03-26, which has none, whatever it declared", async () => {
    const id = await session("2025-03-26", { elicitation: {}, sampling: {}, roots: {} });
    const reply = await callTool("2025-03-26", id, "test_elicitation", { message: "Name?" });
    expect(reply.messages.filter((m) => m.method === "elicitation/create")).toEqual([]);
    expect(reply.final?.error).toEqual(undeclared("elicitation/create", { elicitation: {} }));
  });

  it("never sends URL elicitation to 2025-06-18, which has only the form mode", async () => {
    const server = serve(
      defineServer({
        name: "asks-url",
        version: "1",
        input: inputRounds,
        tools: [
          tool({
            name: "sign_in",
            description: "Sends the user to a page",
            run: async (_args, ctx) => {
              const { page } = await ctx.input({
                page: elicitUrl({ message: "Sign in", url: "https://example.com/in" }),
              });
              return page.action;
            },
          }),
        ],
      }),
      { durable: (e) => durableObjects({ rendezvous: e.MCP_RENDEZVOUS }) },
    );
    const declared = { elicitation: { form: {}, url: {} } };
    const handshake = await server.send(
      legacyRequest(
        "initialize",
        {
          protocolVersion: "2025-06-18",
          capabilities: declared,
          clientInfo: { name: "o", version: "1" },
        },
        { version: null },
      ),
      "initialize",
      "2025",
    );
    const id = handshake.headers.get("Mcp-Session-Id")!;
    const reply = await server.send(
      legacyRequest(
        "tools/call",
        { name: "sign_in", arguments: {} },
        { version: "2025-06-18", headers: { "Mcp-Session-Id": id } },
      ),
      "tools/call",
      "2025",
    );
    expect(reply.messages.filter((m) => m.method === "elicitation/create")).toEqual([]);
    expect(reply.final?.error).toEqual(
      undeclared("elicitation/create", { elicitation: { url: {} } }),
    );
  });

  it("asks 2025-03-26 for sampling, which it has", async () => {
    const id = await session("2025-03-26", { sampling: {} });
    const reply = await exports.default.fetch(
      legacyRequest(
        "tools/call",
        { name: "test_sampling", arguments: { prompt: "Hi" } },
        { version: "2025-03-26", headers: { "Mcp-Session-Id": id } },
      ),
    );
    const reader = reply.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('"method":"sampling/createMessage"');
    await reader.cancel();
  });
});
