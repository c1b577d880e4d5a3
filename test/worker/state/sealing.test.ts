import { describe, expect, it } from "vitest";
import {
  DefinitionError,
  defineServer,
  inputRounds,
  resourceTemplate,
  sealing,
  tool,
} from "../../../worker/mcp/index.ts";
import { withLoggedErrors } from "../../support/logged-errors.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";

const EXAMPLE = "dev-only-secret-change-me-0123456789abcdef";
const DEPLOYED = "https://edgemcp.example.workers.dev/mcp/t";
const IMPORT = 'import { sealing } from "edgemcp/server"';
// The log line is JSON: the import's quotes come escaped there.
const LOGGED = "need sealing, which this server did not link: import { sealing } from";

const tools = (n: number) =>
  Array.from({ length: n }, (_, i) => tool({ name: `t${i}`, run: () => String(i) }));

describe("a server without sealing", () => {
  it("is a DefinitionError when a list is longer than one page, naming the import", () => {
    const define = () => defineServer({ name: "long", version: "1", pageSize: 2, tools: tools(3) });
    expect(define).toThrow(DefinitionError);
    expect(define).toThrow(/the tools list has 3 items, more than one page \(pageSize 2\)/);
    expect(define).toThrow(IMPORT);
  });

  it("may have lists of exactly one page, and lists longer with sealing or input rounds", () => {
    expect(() =>
      defineServer({ name: "full", version: "1", pageSize: 3, tools: tools(3) }),
    ).not.toThrow();
    expect(() =>
      defineServer({ name: "sealed", version: "1", pageSize: 2, tools: tools(3), sealing }),
    ).not.toThrow();
    expect(() =>
      defineServer({
        name: "asks",
        version: "1",
        pageSize: 2,
        tools: tools(3),
        input: inputRounds,
      }),
    ).not.toThrow();
  });

  it("serves off localhost without EDGEMCP_SECRET, and ignores a weak one it never uses", async () => {
    const server = defineServer({ name: "t", version: "1", tools: tools(1) });
    for (const secret of [undefined, EXAMPLE]) {
      const served = serve(server, {}, { EDGEMCP_SECRET: secret });
      const request = new Request(DEPLOYED, mcpRequest("tools/list", {}, { server: "t" }));
      const { status, final } = await served.send(request, "tools/list");
      expect(status).toBe(200);
      expect(final?.result.tools).toMatchObject([{ name: "t0" }]);
    }
  });

  it("answers a cursor -32602: it issued none", async () => {
    const served = serve(defineServer({ name: "t", version: "1", tools: tools(1) }));
    const { final } = await served.send(
      mcpRequest(
        "tools/list",
        { cursor: "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
        { server: "t" },
      ),
      "tools/list",
    );
    expect(final?.error).toMatchObject({
      code: -32602,
      message:
        "Invalid cursor: this server seals nothing, so it issued none. Fetch the list again without a cursor.",
    });
  });

  it("fails a handler that seals or opens a handle, logging the import to add", async () => {
    const { logged } = await withLoggedErrors(async () => {
      const served = serve(
        defineServer({
          name: "t",
          version: "1",
          tools: [
            tool({ name: "seal", run: (_args, ctx) => ctx.handles.seal("session", { n: 1 }) }),
            tool({
              name: "open",
              run: async (_args, ctx) => String(await ctx.handles.open("session", "x")),
            }),
          ],
        }),
      );
      for (const name of ["seal", "open"]) {
        const { final } = await served.send(
          mcpRequest("tools/call", { name }, { server: "t" }),
          "tools/call",
        );
        expect(final?.result).toMatchObject({ isError: true });
        // The model is told the tool failed, not how the server is built.
        expect(JSON.stringify(final?.result)).not.toContain("sealing");
      }
    });
    expect(logged).toContain(`ctx.handles and list cursors ${LOGGED}`);
  });

  it("fails a list known only per request that outgrows a page, logging the import to add", async () => {
    const { logged } = await withLoggedErrors(async () => {
      const served = serve(
        defineServer({
          name: "t",
          version: "1",
          pageSize: 2,
          resourceTemplates: [
            resourceTemplate({
              uriTemplate: "n://{id}",
              name: "n",
              list: () => [1, 2, 3].map((id) => ({ uri: `n://${id}`, name: `n${id}` })),
              read: () => "x",
            }),
          ],
        }),
      );
      const { final } = await served.send(
        mcpRequest("resources/list", {}, { server: "t" }),
        "resources/list",
      );
      expect(final?.error).toMatchObject({ code: -32603 });
    });
    expect(logged).toContain(LOGGED);
  });
});

describe("a server with sealing", () => {
  it("refuses the example secret off localhost with 500, saying how to set a real one", async () => {
    await withLoggedErrors(async () => {
      const server = defineServer({ name: "t", version: "1", tools: tools(1), sealing });
      const served = serve(server, {}, { EDGEMCP_SECRET: EXAMPLE });
      const request = new Request(DEPLOYED, mcpRequest("tools/list", {}, { server: "t" }));
      const response = await served.fetch(request);
      expect(response.status).toBe(500);
      const body = await response.json<{ error: { message: string } }>();
      expect(body.error.message).toMatch(
        /^Server misconfigured: EDGEMCP_SECRET holds the published/,
      );
      expect(body.error.message).not.toContain(EXAMPLE);
      const local = await served.fetch(mcpRequest("tools/list", {}, { server: "t" }));
      expect(local.status).toBe(200);
    });
  });
});
