import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { decodeHeaderValue, encodeHeaderValue } from "../../shared/protocol/headers.ts";
import { decodeSse, encodeSseComment, encodeSseMessage } from "../../shared/sse.ts";
import { replyModeOf } from "../../worker/http/accept.ts";
import { elicit, prompt, resourceTemplate, tool } from "../../worker/mcp/index.ts";
import { ToolError } from "../../worker/mcp/index.ts";
import { UriTemplate } from "../../shared/uri-template.ts";
import type { HandlerContext } from "../../worker/mcp/index.ts";
import { legacyInput, type AnswerWait } from "../../worker/mcp/era/legacy/input.ts";
import { RpcError } from "../../shared/protocol/errors.ts";

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
    ["", "=?base64??="],
  ])("encodes %j as the spec says, and decodes it back", (value, encoded) => {
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
    // A query pair may only set a query variable: the path's id stays 5.
    ["items://{id}{?q}", "items://5?id=9&q=x", { id: "5", q: "x" }],
    ["items://x{?a}{&b}", "items://x?a=1&b=2", { a: "1", b: "2" }],
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

describe("asking 2025 clients for input", () => {
  /** A wait for answers that records every wait and answers from `answers`. */
  function fakeAnswers() {
    const waits: { id: string; signal: AbortSignal }[] = [];
    const answers = new Map<string, string>();
    const port: AnswerWait = (id, signal) => {
      waits.push({ id, signal });
      const answer = answers.get(id);
      if (answer !== undefined) return Promise.resolve(answer);
      return new Promise((_, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    };
    return { waits, answers, port };
  }

  const elicitation = { method: "elicitation/create", params: { message: "Name?" } };

  it("starts no wait for a request it could not send", async () => {
    const { waits, port } = fakeAnswers();
    const { relay } = legacyInput(() => false, new AbortController().signal, port);
    const failure = await relay.ask({ who: elicitation }, undefined).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RpcError);
    expect(failure).toMatchObject({
      code: -32600,
      message: expect.stringContaining("does not accept text/event-stream"),
    });
    expect(waits).toEqual([]);
  });

  it("stops waiting for the other answers once one is refused", async () => {
    const { waits, answers, port } = fakeAnswers();
    const { relay } = legacyInput(
      (message) => {
        if (message.method === "roots/list") {
          const refusal = { jsonrpc: "2.0", id: message.id, error: { code: -1, message: "no" } };
          answers.set(String(message.id), JSON.stringify(refusal));
        }
        return true;
      },
      new AbortController().signal,
      port,
    );
    await expect(
      relay.ask({ who: elicitation, roots: { method: "roots/list" } }, undefined),
    ).rejects.toThrow("The client refused roots/list: no");
    expect(waits).toHaveLength(2);
    expect(waits.every((wait) => wait.signal.aborted)).toBe(true);
  });
});

describe("checking 2025 clients' answers", () => {
  /** A wait for answers where every request the call sends is answered with `result`. */
  function answering(result: unknown) {
    const sent: string[] = [];
    const notify = (message: { id?: unknown }) => {
      sent.push(String(message.id));
      return true;
    };
    const port: AnswerWait = async (id) => {
      expect(sent).toContain(id);
      return JSON.stringify({ jsonrpc: "2.0", id, result });
    };
    return legacyInput(notify, new AbortController().signal, port);
  }
  const who = elicit({ message: "Name?", schema: z.object({ name: z.string() }) });

  it("hands a valid answer to the handler", async () => {
    await expect(
      answering({ action: "accept", content: { name: "Ada" } }).input({ who }),
    ).resolves.toEqual({
      who: { action: "accept", content: { name: "Ada" } },
    });
  });

  it.each([
    ["an unknown action", { action: "maybe" }],
    ["content that does not fit the schema", { action: "accept", content: { name: 5 } }],
  ])("refuses %s as a tool error", async (_, result) => {
    const failure = await answering(result)
      .input({ who })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ToolError);
    expect(failure).toMatchObject({
      message: expect.stringMatching(/^The client's answer to elicitation\/create is not valid: ./),
    });
  });
});
