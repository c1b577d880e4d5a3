import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  defineServer,
  prompt,
  resource,
  resourceTemplate,
  tool,
  toolResult,
} from "../../worker/mcp/index.ts";
import { keyringFrom } from "../../worker/state/keyring.ts";
import { Sealer } from "../../worker/state/sealer.ts";
import { mcpRequest } from "../support/mcp-request.ts";
import { TEST_SECRETS } from "../support/secrets.ts";
import { serve } from "./custom-server.ts";

const request = (method: string, params: Record<string, unknown> = {}) =>
  mcpRequest(method, params, { server: "t" });

describe("tool failures", () => {
  const server = serve(
    defineServer({
      name: "failures",
      version: "1.0.0",
      tools: [
        tool({
          name: "throws",
          description: "Throws a plain error",
          run: () => Promise.reject(new Error("disk full")),
        }),
        tool({
          name: "bad_output",
          description: "Breaks its output schema",
          output: z.object({ n: z.number() }),
          run: () => ({ n: "x" }) as unknown as { n: number },
        }),
        tool({
          name: "bad_return",
          description: "Returns something unsendable",
          run: () => 42 as unknown as string,
        }),
        tool({
          name: "bad_explicit",
          description: "Returns a full result that breaks its output schema",
          output: z.object({ ok: z.boolean() }),
          run: () => toolResult({ structuredContent: { ok: "yes" } as unknown as { ok: boolean } }),
        }),
        tool({
          name: "explicit",
          description: "Returns a full result",
          output: z.object({ ok: z.boolean() }),
          run: () =>
            toolResult({
              content: [{ type: "text", text: "custom" }],
              structuredContent: { ok: true },
            }),
        }),
      ],
    }),
  );

  it("turns an exception into an isError result naming the tool", async () => {
    const { final } = await server.send(request("tools/call", { name: "throws" }), "tools/call");
    expect(final?.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: 'Tool "throws" failed: disk full' }],
    });
  });

  it("answers output that breaks the declared schema with -32603, a server bug", async () => {
    const { final } = await server.send(
      request("tools/call", { name: "bad_output" }),
      "tools/call",
    );
    expect(final?.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/outputSchema/),
    });
  });

  it("answers a toolResult whose structuredContent breaks the schema with -32603", async () => {
    const { final } = await server.send(
      request("tools/call", { name: "bad_explicit" }),
      "tools/call",
    );
    expect(final?.error).toMatchObject({
      code: -32603,
      message: expect.stringContaining(
        'Tool "bad_explicit" produced a result that does not match its declared outputSchema',
      ),
    });
  });

  it("answers an unsendable return value with -32603", async () => {
    const { final } = await server.send(
      request("tools/call", { name: "bad_return" }),
      "tools/call",
    );
    expect(final?.error).toMatchObject({
      code: -32603,
      message: 'Tool "bad_return" returned a value the runtime cannot send (a server bug).',
    });
  });

  it("sends a toolResult as given", async () => {
    const { final } = await server.send(request("tools/call", { name: "explicit" }), "tools/call");
    expect(final?.result).toMatchObject({
      content: [{ type: "text", text: "custom" }],
      structuredContent: { ok: true },
    });
  });
});

describe("failures of resource readers and prompts", () => {
  const server = serve(
    defineServer({
      name: "leaky",
      version: "1.0.0",
      resources: [
        resource({
          uri: "t://vault",
          name: "vault",
          read: () => Promise.reject(new Error("secret: the vault code is 1234")),
        }),
      ],
      prompts: [
        prompt({
          name: "vault",
          get: () => {
            throw new Error("secret: the vault code is 1234");
          },
        }),
      ],
    }),
  );

  it.each([
    ["resources/read", { uri: "t://vault" }],
    ["prompts/get", { name: "vault" }],
  ])(
    "answer %s with a generic -32603 that keeps the error's text private",
    async (method, params) => {
      const { final } = await server.send(request(method, params), method);
      expect(final?.error).toMatchObject({
        code: -32603,
        message: "Internal error: the server failed while handling this request.",
      });
      expect(JSON.stringify(final)).not.toContain("secret");
    },
  );
});

describe("capabilities follow what a server defines", () => {
  const server = serve(
    defineServer({
      name: "tools-only",
      version: "1.0.0",
      tools: [tool({ name: "t", description: "T", run: () => "ok" })],
    }),
  );

  it("advertises only tools", async () => {
    const { final } = await server.send(request("server/discover"), "server/discover");
    expect(final?.result.capabilities).toEqual({ tools: {} });
  });

  it.each(["prompts/list", "resources/list", "resources/templates/list", "completion/complete"])(
    "answers %s with -32601 since the capability is not offered",
    async (method) => {
      const reply = await server.send(request(method), method);
      expect(reply.status).toBe(404);
      expect(reply.final?.error.code).toBe(-32601);
    },
  );
});

describe("pagination", () => {
  const ANOTHER_LIST =
    "Invalid cursor: it was issued for another list, or the list has changed since. Fetch the list again without a cursor.";
  const tools = Array.from({ length: 7 }, (_, i) =>
    tool({ name: `t${i}`, description: `Tool ${i}`, run: () => String(i) }),
  );
  const server = serve(defineServer({ name: "paged", version: "1.0.0", pageSize: 3, tools }));

  it("walks every page through opaque cursors, in order, ending without nextCursor", async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { final } = await server.send(
        request("tools/list", cursor ? { cursor } : {}),
        "tools/list",
      );
      names.push(...(final?.result.tools ?? []).map((t: { name: string }) => t.name));
      cursor = final?.result.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(names).toEqual(["t0", "t1", "t2", "t3", "t4", "t5", "t6"]);
  });

  it.each(["garbage", "", "dG9vbHM6MTp4eHg", "cHJvbXB0czoxOg"])(
    "answers the bad cursor %j with -32602",
    async (cursor) => {
      const { final } = await server.send(request("tools/list", { cursor }), "tools/list");
      expect(final?.error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/cursor handle is not valid/),
      });
    },
  );

  it("answers a cursor past the end of the list with -32602", async () => {
    const first = await server.send(request("tools/list"), "tools/list");
    // A genuine cursor for this list, moved past its last page.
    const sealer = new Sealer(await keyringFrom(TEST_SECRETS.EDGEMCP_SECRET, undefined));
    const state = await sealer.open("cursor", "", first.final?.result.nextCursor);
    const cursor = await sealer.seal("cursor", "", { ...(state as object), i: 3 }, 60_000);
    const { final } = await server.send(request("tools/list", { cursor }), "tools/list");
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("Invalid cursor: it points past the end of the list."),
    });
  });

  it("refuses a cursor issued for a different version of the list", async () => {
    const first = await server.send(request("tools/list"), "tools/list");
    const other = serve(
      defineServer({ name: "paged", version: "1.0.0", pageSize: 3, tools: tools.slice(1) }),
    );
    const { final } = await other.send(
      request("tools/list", { cursor: first.final?.result.nextCursor }),
      "tools/list",
    );
    expect(final?.error).toMatchObject({ code: -32602, message: ANOTHER_LIST });
  });

  it("refuses a genuine cursor moved to another list", async () => {
    const first = await server.send(request("tools/list"), "tools/list");
    const sealer = new Sealer(await keyringFrom(TEST_SECRETS.EDGEMCP_SECRET, undefined));
    const state = (await sealer.open("cursor", "", first.final?.result.nextCursor)) as object;
    expect(state).toMatchObject({ l: expect.any(String), i: 1, f: expect.any(String) });
    const cursor = await sealer.seal("cursor", "", { ...state, l: "elsewhere" }, 60_000);
    const { final } = await server.send(request("tools/list", { cursor }), "tools/list");
    expect(final?.error).toMatchObject({ code: -32602, message: ANOTHER_LIST });
  });

  it.each([
    ["no fields", {}],
    ["a page that is not a positive integer", { l: "tools", i: 0, f: "x" }],
    ["a list that is not a string", { l: 1, i: 1, f: "x" }],
    ["not an object", "tools:1"],
  ])("refuses a genuinely sealed cursor holding %s with -32602", async (_, state) => {
    const sealer = new Sealer(await keyringFrom(TEST_SECRETS.EDGEMCP_SECRET, undefined));
    const cursor = await sealer.seal("cursor", "", state, 60_000);
    const { final } = await server.send(request("tools/list", { cursor }), "tools/list");
    expect(final?.error).toMatchObject({
      code: -32602,
      message: "Invalid cursor. Fetch the list again without a cursor.",
    });
  });
});

describe("server definitions are checked when first used", () => {
  const broken = (definition: Parameters<typeof defineServer>[0]) => () =>
    defineServer(definition).catalog;

  it.each([
    [
      "a duplicate tool name",
      { tools: [tool({ name: "a", run: () => "" }), tool({ name: "a", run: () => "" })] },
      /defines tool "a" twice/,
    ],
    [
      "a tool name with spaces",
      { tools: [tool({ name: "a b", run: () => "" })] },
      /1-128 characters/,
    ],
    [
      "an x-mcp-header on a number",
      {
        tools: [
          tool({
            name: "n",
            input: z.object({ x: z.number().meta({ "x-mcp-header": "X" }) }),
            run: () => "",
          }),
        ],
      },
      /string, integer or boolean/,
    ],
    [
      "an x-mcp-header inside an array",
      {
        tools: [
          tool({
            name: "n",
            input: z.object({
              xs: z.array(z.object({ y: z.string().meta({ "x-mcp-header": "Y" }) })),
            }),
            run: () => "",
          }),
        ],
      },
      /not reachable/,
    ],
    [
      "a duplicate x-mcp-header",
      {
        tools: [
          tool({
            name: "n",
            input: z.object({
              a: z.string().meta({ "x-mcp-header": "Dup" }),
              b: z.string().meta({ "x-mcp-header": "dup" }),
            }),
            run: () => "",
          }),
        ],
      },
      /used twice/,
    ],
    [
      "a non-object input schema",
      { tools: [tool({ name: "n", inputSchema: { type: "string" }, run: () => "" })] },
      /type "object"/,
    ],
    ["a bad page size", { pageSize: 0 }, /positive integer/],
    [
      "a duplicate resource",
      {
        resources: [
          resource({ uri: "a:b", name: "x", read: () => "" }),
          resource({ uri: "a:b", name: "y", read: () => "" }),
        ],
      },
      /twice/,
    ],
    [
      "an unclosed template",
      {
        resourceTemplates: [resourceTemplate({ uriTemplate: "a://{x", name: "x", read: () => "" })],
      },
      /unclosed/,
    ],
    [
      "a duplicate prompt",
      { prompts: [prompt({ name: "p", get: () => "" }), prompt({ name: "p", get: () => "" })] },
      /twice/,
    ],
  ])("rejects %s", (_what, extra, message) => {
    expect(broken({ name: "bad", version: "1", ...extra })).toThrow(message);
  });

  it("accepts an x-mcp-header on a nested property reached through properties", () => {
    const server = defineServer({
      name: "nested",
      version: "1",
      tools: [
        tool({
          name: "n",
          input: z.object({ o: z.object({ deep: z.boolean().meta({ "x-mcp-header": "Deep" }) }) }),
          run: () => "",
        }),
      ],
    });
    expect(server.catalog.tools.get("n")?.headerParams).toEqual([
      { header: "Deep", path: ["o", "deep"], type: "boolean" },
    ]);
  });
});
