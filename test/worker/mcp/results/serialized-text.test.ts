import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { hubServer } from "../../../../worker/hub/hub-server.ts";
import {
  defineServer,
  serializedText,
  SerializedText,
  tool,
  toolResult,
} from "../../../../worker/mcp/index.ts";
import { mcpApp } from "../../../../worker/mcp/hono.ts";
import type { Catalog } from "../../../../worker/mcp/catalog/catalog.ts";
import { legacy } from "../../../../worker/mcp/era/legacy/index.ts";
import { modern } from "../../../../worker/mcp/era/modern/index.ts";
import { EraResponse } from "../../../../worker/mcp/request/reply.ts";
import { MARKER } from "../../../../worker/mcp/results/serialized-text.ts";
import { legacyRequest, mcpRequest } from "../../../support/mcp-request.ts";
import { serve } from "../../custom-server.ts";

// Every character JSON escapes, and what it does not: quotes, backslashes, control characters,
// the line and paragraph separators, non-ASCII, an emoji (a surrogate pair) and a lone surrogate.
const TRICKY = `"quoted" \\ back\\slash \n\r\t\u0000\u001f \u2028\u2029 é ü 漢字 😀 \ud800 end`;
const LONG = "0123456789abcdef".repeat(64 * 1024) + TRICKY;

const once = { tricky: serializedText(TRICKY), long: serializedText(LONG) };
const annotated = serializedText(TRICKY, {
  annotations: { audience: ["user"], priority: 0.5 },
  _meta: { "example.com/origin": "cache" },
});

const server = defineServer({
  name: "t",
  version: "1.0.0",
  tools: [
    tool({ name: "plain_tricky", run: () => TRICKY }),
    tool({ name: "serialized_tricky", run: () => once.tricky }),
    tool({ name: "plain_long", run: () => LONG }),
    tool({ name: "serialized_long", run: () => once.long }),
    tool({
      name: "plain_mixed",
      run: () => [
        { type: "text" as const, text: "first" },
        {
          type: "text" as const,
          text: TRICKY,
          annotations: { audience: ["user" as const], priority: 0.5 },
          _meta: { "example.com/origin": "cache" },
        },
      ],
    }),
    tool({
      name: "serialized_mixed",
      run: () => [{ type: "text" as const, text: "first" }, annotated],
    }),
    tool({
      name: "plain_structured",
      output: z.object({ n: z.number() }),
      run: () =>
        toolResult({ content: [{ type: "text", text: TRICKY }], structuredContent: { n: 1 } }),
    }),
    tool({
      name: "serialized_structured",
      output: z.object({ n: z.number() }),
      run: () => toolResult({ content: [once.tricky], structuredContent: { n: 1 } }),
    }),
    // A value that is the marker standing for a serialized block while the rest is serialized.
    tool({
      name: "plain_marker",
      run: () => [
        { type: "text" as const, text: TRICKY },
        { type: "text" as const, text: MARKER },
      ],
    }),
    tool({
      name: "serialized_marker",
      run: () => [once.tricky, { type: "text" as const, text: MARKER }],
    }),
    tool({
      name: "plain_streamed",
      run: (_a, ctx) => {
        ctx.progress(1, 1);
        return TRICKY;
      },
    }),
    tool({
      name: "serialized_streamed",
      run: (_a, ctx) => {
        ctx.progress(1, 1);
        return once.tricky;
      },
    }),
  ],
});
const app = serve(server);

const modernCall = (name: string, accept?: string) =>
  mcpRequest(
    "tools/call",
    { name, arguments: {} },
    {
      server: "t",
      id: 7,
      meta: { progressToken: "p" },
      ...(accept ? { headers: { Accept: accept } } : {}),
    },
  );
const legacyCall = (name: string) =>
  legacyRequest("tools/call", { name, arguments: {} }, { server: "t", id: 7 });

/** The body of a request for the plain tool and for its serialized twin, and the twin's reply. */
async function pair(request: (name: string) => Request, kind: string, era: "2026" | "2025") {
  const plain = await (await app.fetch(request(`plain_${kind}`))).text();
  const reply = await app.send(request(`serialized_${kind}`), "tools/call", era);
  const serialized = await (await app.fetch(request(`serialized_${kind}`))).text();
  return { plain, serialized, reply };
}

describe("a text block serialized once (serializedText)", () => {
  for (const kind of ["tricky", "long", "mixed", "structured", "marker"]) {
    it(`answers the same bytes as the plain text block, 2026 and 2025 (${kind})`, async () => {
      for (const [request, era] of [
        [(n: string) => modernCall(n), "2026"],
        [legacyCall, "2025"],
      ] as const) {
        const { plain, serialized, reply } = await pair(request, kind, era);
        expect(reply.status).toBe(200);
        expect(serialized).toBe(plain);
        expect(reply.final?.result.isError).toBeUndefined();
      }
    });
  }

  it("carries the text, its annotations and _meta as a plain block does", async () => {
    const { final } = await app.send(modernCall("serialized_mixed"), "tools/call");
    expect(final?.result.content).toEqual([
      { type: "text", text: "first" },
      {
        type: "text",
        text: TRICKY,
        annotations: { audience: ["user"], priority: 0.5 },
        _meta: { "example.com/origin": "cache" },
      },
    ]);
  });

  it("answers the same bytes on a stream (after a notification, and to an SSE-only client)", async () => {
    const streamed = await pair((n) => modernCall(n), "streamed", "2026");
    expect(streamed.reply.contentType).toMatch(/^text\/event-stream/);
    expect(streamed.serialized).toBe(streamed.plain);
    const sseOnly = await pair((n) => modernCall(n, "text/event-stream"), "tricky", "2026");
    expect(sseOnly.reply.contentType).toMatch(/^text\/event-stream/);
    expect(sseOnly.serialized).toBe(sseOnly.plain);
    expect(sseOnly.reply.final?.result.content).toEqual([{ type: "text", text: TRICKY }]);
  });

  it("is served again and again from one block", async () => {
    const first = await (await app.fetch(modernCall("serialized_long"))).text();
    const second = await (await app.fetch(modernCall("serialized_long"))).text();
    expect(second).toBe(first);
    expect(JSON.parse(second).result.content[0].text).toBe(LONG);
  });

  it("reaches a hub's caller through an in-process upstream as the same text", async () => {
    const hub = serve(hubServer({ name: "h", upstreams: [{ name: "up", app: mcpApp(server) }] }));
    for (const kind of ["tricky", "long", "mixed"]) {
      const call = (name: string) =>
        mcpRequest("tools/call", { name, arguments: {} }, { server: "h", id: 3 });
      const plain = await (await hub.fetch(call(`up__plain_${kind}`))).text();
      const serialized = await hub.send(call(`up__serialized_${kind}`), "tools/call");
      expect(serialized.status).toBe(200);
      expect(await (await hub.fetch(call(`up__serialized_${kind}`))).text()).toBe(plain);
      expect(serialized.final?.result.content).toEqual(JSON.parse(plain).result.content);
    }
  });

  it("is a frozen text block whose JSON is the plain block's", () => {
    expect(once.tricky).toBeInstanceOf(SerializedText);
    expect(once.tricky.type).toBe("text");
    expect(once.tricky.text).toBe(TRICKY);
    expect(Object.isFrozen(once.tricky)).toBe(true);
    expect(JSON.stringify(once.tricky)).toBe(JSON.stringify({ type: "text", text: TRICKY }));
    expect(JSON.stringify(annotated)).toBe(
      JSON.stringify({
        type: "text",
        text: TRICKY,
        annotations: { audience: ["user"], priority: 0.5 },
        _meta: { "example.com/origin": "cache" },
      }),
    );
  });

  it("serializes nothing when built (start-up), only for the first reply that carries it", () => {
    const catalog = { serverInfo: { name: "t", version: "1.0.0" } } as Catalog;
    const text = "built at module level, carried by many replies";
    const encoded = vi.fn();
    const original = TextEncoder.prototype.encode;
    const encode = vi.spyOn(TextEncoder.prototype, "encode");
    encode.mockImplementation(function (this: TextEncoder, input?: string) {
      if (input?.includes(text)) encoded(input);
      return original.call(this, input);
    });
    try {
      const block = serializedText(text);
      expect(encoded).not.toHaveBeenCalled();
      const reply = () => new EraResponse(modern, { content: [block] }, 7, catalog).bytes();
      const first = reply();
      expect(encoded).toHaveBeenCalledTimes(1);
      expect(encoded).toHaveBeenCalledWith(JSON.stringify({ type: "text", text }));
      expect(reply()).toEqual(first);
      expect(encoded).toHaveBeenCalledTimes(1);
    } finally {
      encode.mockRestore();
    }
  });

  it("refuses what is not a text block, saying what is wrong", () => {
    expect(() => serializedText(42 as unknown as string)).toThrow(/^serializedText: block\.text: /);
    expect(() => serializedText("x", { annotations: { priority: 2 } })).toThrow(
      /^serializedText: block\.annotations\.priority: /,
    );
    expect(() => serializedText("x", { _meta: [] as unknown as Record<string, unknown> })).toThrow(
      /^serializedText: block\._meta: /,
    );
  });

  it("is copied into a JSON reply as bytes, in each era, unless the marker is ambiguous", () => {
    const catalog = { serverInfo: { name: "t", version: "1.0.0" } } as Catalog;
    const encode = (text: string) => new TextEncoder().encode(text);
    for (const era of [modern, legacy]) {
      const spliced = new EraResponse(era, { content: [once.tricky, annotated] }, 7, catalog);
      expect(spliced.bytes()).toEqual(encode(spliced.text()));
      const plain = new EraResponse(era, { content: [{ type: "text", text: "x" }] }, 7, catalog);
      expect(plain.bytes()).toBeUndefined();
      const marked = { content: [once.tricky], structuredContent: { [MARKER]: MARKER } };
      const ambiguous = new EraResponse(era, marked, 7, catalog);
      expect(ambiguous.bytes()).toEqual(encode(ambiguous.text()));
    }
  });
});
