import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { decodeHeaderValue, encodeHeaderValue } from "../../shared/protocol/headers.ts";
import { decodeSse, encodeSseComment, encodeSseMessage } from "../../shared/sse.ts";
import { replyModeOf } from "../../worker/http/accept.ts";
import { prompt, resourceTemplate, tool } from "../../worker/mcp/index.ts";
import { UriTemplate } from "../../shared/uri-template.ts";
import type { HandlerContext } from "../../worker/mcp/context.ts";

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function events(...chunks: string[]) {
  const out = [];
  for await (const event of decodeSse(streamOf(...chunks))) out.push(event);
  return out;
}

describe("SSE decoding", () => {
  it("reads events split across chunks at any point, CRLF included", async () => {
    expect(await events("event: mess", "age\r", '\ndata: {"a"', ":1}\r\n\r\n")).toEqual([
      { event: "message", data: '{"a":1}' },
    ]);
  });

  it("joins multi-line data, skips comments and defaults the event name", async () => {
    expect(await events(": keep-alive\n\ndata: a\ndata: b\n\n")).toEqual([
      { event: "message", data: "a\nb" },
    ]);
  });

  it("keeps ids and drops an unterminated last event", async () => {
    expect(await events("id: 7\ndata: x\n\ndata: partial")).toEqual([
      { event: "message", data: "x", id: "7" },
    ]);
  });

  it("round-trips what the encoder writes", async () => {
    const decoder = new TextDecoder();
    const text =
      decoder.decode(encodeSseComment("hi")) + decoder.decode(encodeSseMessage('{"x":1}'));
    expect(await events(text)).toEqual([{ event: "message", data: '{"x":1}' }]);
  });
});

describe("header value encoding", () => {
  it.each([
    ["us-west1", "us-west1"],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
  ])("encodes %j as the spec's example", (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
    expect(decodeHeaderValue(encoded)).toEqual({ ok: true, value });
  });

  it("treats an upper-case sentinel as a literal value", () => {
    expect(decodeHeaderValue("=?BASE64?SGk=?=")).toEqual({ ok: true, value: "=?BASE64?SGk=?=" });
  });

  it("refuses raw non-ASCII", () => {
    expect(decodeHeaderValue("caf\u00e9").ok).toBe(false);
  });
});

describe("URI templates", () => {
  it.each([
    ["test://template/{id}/data", "test://template/123/data", { id: "123" }],
    ["notes://{+path}", "notes://a/b/c", { path: "a/b/c" }],
    [
      "d1://tables/{table}/rows{?limit,offset}",
      "d1://tables/users/rows?limit=5",
      { table: "users", limit: "5" },
    ],
    ["d1://tables/{table}/rows{?limit}", "d1://tables/users/rows", { table: "users" }],
    ["files://{dir}{/name}", "files://docs/readme", { dir: "docs", name: "readme" }],
  ])("%s matches %s", (template, uri, vars) => {
    expect(new UriTemplate(template).match(uri)).toEqual(vars);
  });

  it.each([
    ["test://template/{id}/data", "test://template/1/2/data"],
    ["test://template/{id}/data", "other://template/1/data"],
  ])("%s does not match %s", (template, uri) => {
    expect(new UriTemplate(template).match(uri)).toBeUndefined();
  });

  it("expands values, encoding them", () => {
    expect(
      new UriTemplate("d1://t/{table}/rows{?limit}").expand({ table: "a b", limit: "5" }),
    ).toBe("d1://t/a%20b/rows?limit=5");
  });
});

describe("Accept", () => {
  it.each([
    [undefined, "json-or-sse"],
    ["application/json, text/event-stream", "json-or-sse"],
    ["*/*", "json-or-sse"],
    ["application/json", "json-only"],
    ["text/event-stream", "sse-only"],
    ["text/event-stream, application/json;q=0", "sse-only"],
    ["text/html", undefined],
  ])("%s allows %s", (accept, mode) => {
    expect(replyModeOf(accept)).toBe(mode);
  });
});

describe("the authoring API infers handler types from schemas", () => {
  it("types tool arguments from the input schema", () => {
    tool({
      name: "t",
      input: z.object({ a: z.number(), b: z.string().optional() }),
      output: z.object({ sum: z.number() }),
      run: (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<{ a: number; b?: string | undefined }>();
        expectTypeOf(ctx).toEqualTypeOf<HandlerContext>();
        return { sum: args.a };
      },
    });
  });

  it("types template variables from the URI template", () => {
    resourceTemplate({
      uriTemplate: "d1://tables/{table}/rows{?limit}",
      name: "rows",
      read: (params) => {
        expectTypeOf(params).toEqualTypeOf<{ table: string; limit?: string }>();
        return "";
      },
    });
  });

  it("types prompt arguments from the args schema", () => {
    prompt({
      name: "p",
      args: z.object({ topic: z.string(), tone: z.string().optional() }),
      get: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ topic: string; tone?: string | undefined }>();
        return "";
      },
    });
  });
});
