import { createExecutionContext } from "cloudflare:test";
import { fixtureEnv as env } from "../fixture-env.ts";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { defineServer, mcpHandler, sealing, tool } from "../../../worker/mcp/index.ts";
import { legacyRequest, mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";

const FIX =
  /^Server misconfigured: EDGEMCP_SECRET is not set, so this server cannot seal handles, cursors or requestState\. Set it with `npx wrangler secret put EDGEMCP_SECRET` \(locally: \.dev\.vars\)\.$/;

const NO_SECRET = { EDGEMCP_SECRET: undefined };

// Two tools on pages of one: the first page's nextCursor is sealed.
const paged = defineServer({
  name: "paged",
  version: "1",
  pageSize: 1,
  sealing,
  tools: [
    tool({ name: "a", description: "A", run: () => "a" }),
    tool({ name: "b", description: "B", run: () => "b" }),
  ],
});

describe("a deployment without EDGEMCP_SECRET", () => {
  it("serves a server that never seals anything, in both eras", async () => {
    const server = serve(
      defineServer({
        name: "plain",
        version: "1",
        tools: [tool({ name: "t", description: "T", run: () => "ok" })],
      }),
      {},
      NO_SECRET,
    );
    const list = await server.send(mcpRequest("tools/list", {}, { server: "plain" }), "tools/list");
    expect(list.status).toBe(200);
    expect(list.final?.result.tools).toMatchObject([{ name: "t" }]);
    const called = await server.send(
      mcpRequest("tools/call", { name: "t" }, { server: "plain" }),
      "tools/call",
    );
    expect(called.final?.result.content).toEqual([{ type: "text", text: "ok" }]);
    const legacy = await server.send(
      legacyRequest("tools/call", { name: "t" }, { server: "plain" }),
      "tools/call",
      "2025",
    );
    expect(legacy.final?.result.content).toEqual([{ type: "text", text: "ok" }]);
  });

  it("refuses a list whose next page needs a sealed cursor with a 500 that says how to fix it", async () => {
    const server = serve(paged, {}, NO_SECRET);
    const { status, final } = await server.send(mcpRequest("tools/list"), "tools/list");
    expect(status).toBe(500);
    expect(final?.error).toMatchObject({ code: -32603, message: expect.stringMatching(FIX) });
  });

  it("refuses a tool that seals a handle with the same message, as a protocol error", async () => {
    const server = serve(
      defineServer({
        name: "sealing",
        version: "1",
        sealing,
        tools: [
          tool({
            name: "open_session",
            description: "Returns a handle",
            run: (_args, ctx) => ctx.handles.seal("session", { n: 1 }),
          }),
          tool({
            name: "use_session",
            description: "Opens a handle",
            input: z.object({ session: z.string() }),
            run: async ({ session }, ctx) =>
              JSON.stringify(await ctx.handles.open("session", session)),
          }),
        ],
      }),
      {},
      NO_SECRET,
    );
    for (const [name, args] of [
      ["open_session", {}],
      ["use_session", { session: "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" }],
    ] as const) {
      const { status, final } = await server.send(
        mcpRequest("tools/call", { name, arguments: args }, { server: "sealing" }),
        "tools/call",
      );
      expect(status).toBe(500);
      expect(final?.error).toMatchObject({ code: -32603, message: expect.stringMatching(FIX) });
    }
  });
});

describe("a deployment whose secret is fixed", () => {
  it("serves once the secret is set, without remembering the refusal", async () => {
    const handler = mcpHandler(paged);
    const list = (bindings: Cloudflare.Env) =>
      handler.fetch(mcpRequest("tools/list"), bindings, createExecutionContext());
    const refused = await list({ ...env, EDGEMCP_SECRET: "too short" });
    expect(refused.status).toBe(500);
    expect(await refused.json()).toMatchObject({
      error: { message: expect.stringContaining("at least 32 characters") },
    });
    const served = await list(env);
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({
      result: { tools: [{ name: "a" }], nextCursor: expect.any(String) },
    });
  });
});
