import { describe, expect, it } from "vitest";
import { defineServer, prompt, sealing, tool } from "../../../../worker/mcp/index.ts";
import { handleOwner } from "../../../../worker/state/handles.ts";
import { keyringFrom } from "../../../../worker/state/keyring.ts";
import { Sealer } from "../../../../worker/state/sealer.ts";
import { mcpRequest } from "../../../support/mcp-request.ts";
import { TEST_SECRETS } from "../../../support/secrets.ts";
import { serve } from "../../custom-server.ts";

/** Whom the "paged" server below binds an anonymous caller's cursors to. */
const PAGED = handleOwner("paged", "");
const request = (method: string, params: Record<string, unknown> = {}) =>
  mcpRequest(method, params, { server: "t" });

describe("pagination", () => {
  const ANOTHER_LIST =
    "Invalid cursor: it was issued for another list, or the list has changed since. Fetch the list again without a cursor.";
  const tools = Array.from({ length: 7 }, (_, i) =>
    tool({ name: `t${i}`, description: `Tool ${i}`, run: () => String(i) }),
  );
  const server = serve(
    defineServer({ name: "paged", version: "1.0.0", pageSize: 3, tools, sealing }),
  );

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
    const state = await sealer.open("cursor", PAGED, first.final?.result.nextCursor);
    const cursor = await sealer.seal("cursor", PAGED, { ...(state as object), i: 3 }, 60_000);
    const { final } = await server.send(request("tools/list", { cursor }), "tools/list");
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("Invalid cursor: it points past the end of the list."),
    });
  });

  it("refuses a cursor issued for a different version of the list", async () => {
    const first = await server.send(request("tools/list"), "tools/list");
    const other = serve(
      defineServer({
        name: "paged",
        version: "1.0.0",
        pageSize: 3,
        tools: tools.slice(1),
        sealing,
      }),
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
    const state = (await sealer.open("cursor", PAGED, first.final?.result.nextCursor)) as object;
    expect(state).toMatchObject({ l: expect.any(String), i: 1, f: expect.any(String) });
    const cursor = await sealer.seal("cursor", PAGED, { ...state, l: "elsewhere" }, 60_000);
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
    const cursor = await sealer.seal("cursor", PAGED, state, 60_000);
    const { final } = await server.send(request("tools/list", { cursor }), "tools/list");
    expect(final?.error).toMatchObject({
      code: -32602,
      message: "Invalid cursor. Fetch the list again without a cursor.",
    });
  });
});

describe("a list page kept as bytes", () => {
  // The last page of a list is built once and its bytes kept: a whole JSON reply is spliced from
  // them. These check the spliced reply is exactly the JSON the text form would be.
  const tools = [
    tool({
      name: "greet",
      title: "Café",
      description: 'Grüße 👋 \u2028 and "quotes"',
      run: () => "x",
    }),
    tool({ name: "plain", description: "ASCII only", run: () => "y" }),
  ];
  const server = serve(defineServer({ name: "kept", version: "1.0.0", tools }));
  const list = (id: string | number, accept?: string) =>
    mcpRequest(
      "tools/list",
      {},
      { server: "kept", id, ...(accept ? { headers: { Accept: accept } } : {}) },
    );

  it.each([7, "ид-🔑", 'a"b\\c'])(
    "answers id %j with the page's exact JSON, request after request",
    async (id) => {
      const texts: string[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await server.fetch(list(id));
        expect(response.status).toBe(200);
        expect(response.headers.get("Content-Type")).toBe("application/json");
        texts.push(await response.text());
      }
      expect(new Set(texts).size).toBe(1);
      const message = JSON.parse(texts[0] ?? "");
      expect(message.id).toEqual(id);
      expect(message.result.tools.map((t: { name: string }) => t.name)).toEqual(["greet", "plain"]);
      expect(message.result.tools[0].description).toBe('Grüße 👋 \u2028 and "quotes"');
      // Byte for byte what serializing the parsed message again would give.
      expect(texts[0]).toBe(JSON.stringify(message));
    },
  );

  it("answers the same page as one SSE event to a client that accepts only SSE", async () => {
    const json = await (await server.fetch(list(1))).text();
    const response = await server.fetch(list(1, "text/event-stream"));
    expect(response.headers.get("Content-Type")).toBe("text/event-stream");
    const text = await response.text();
    expect(text).toContain(`data: ${json}`);
  });
});

describe("lists made on first use", () => {
  it("serializes no list when the server is defined or called, only for the first list request", async () => {
    let read = 0;
    const entry = prompt({ name: "p", get: () => ({ messages: [] }) });
    // Read only when the prompt's list entry is written.
    Object.defineProperty(entry, "arguments", {
      get() {
        read++;
        return [{ name: "topic", required: true }];
      },
    });
    const defined = defineServer({
      name: "lazy",
      version: "1.0.0",
      tools: [tool({ name: "t", run: () => "ok" })],
      prompts: [entry],
    });
    const server = serve(defined);
    const ask = (method: string, params: Record<string, unknown> = {}) =>
      mcpRequest(method, params, { server: "lazy" });
    expect((await server.send(ask("tools/call", { name: "t" }), "tools/call")).status).toBe(200);
    expect(read).toBe(0);
    const first = await server.send(ask("prompts/list"), "prompts/list");
    expect(first.final?.result.prompts).toEqual([
      { name: "p", arguments: [{ name: "topic", required: true }] },
    ]);
    expect(read).toBe(1);
    await server.send(ask("prompts/list"), "prompts/list");
    expect(read).toBe(1);
  });
});
