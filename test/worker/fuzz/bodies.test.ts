import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { answerOf, fuzz, legacyPost, META, modernPost, reportCounts, SERVERS } from "./support.ts";

const server = fc.constantFrom(...SERVERS);

/** Nests `inner` `depth` levels deep in arrays or objects, as JSON text. */
function nested(depth: number, kind: "array" | "object", inner: string): string {
  return kind === "array"
    ? "[".repeat(depth) + inner + "]".repeat(depth)
    : '{"a":'.repeat(depth) + inner + "}".repeat(depth);
}

describe("fuzz: bodies", { timeout: 300_000 }, () => {
  afterAll(() => reportCounts("bodies"));

  it("answers any JSON value as a body with a well-formed refusal", async () => {
    const property = "any JSON value as the body (both eras)";
    await fuzz(
      fc.tuple(fc.jsonValue({ maxDepth: 5 }), server, fc.boolean()),
      600,
      async ([value, path, modern]) => {
        const request = modern ? modernPost(JSON.stringify(value), path) : legacyPost(value, path);
        const { status } = await answerOf(property, request);
        expect(status).not.toBe(200);
      },
    );
  });

  it("answers bytes that are not UTF-8 JSON with -32700", async () => {
    const property = "random bytes and text as the body";
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc.string({ unit: "binary", maxLength: 200 }).map((text) => new TextEncoder().encode(text)),
    );
    await fuzz(fc.tuple(bytes, server), 300, async ([body, path]) => {
      const text = new TextDecoder().decode(body);
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      const request = new Request(`http://localhost/mcp${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body,
      });
      const { status, messages } = await answerOf(property, request);
      expect(status).toBe(400);
      if (!parses) expect(messages[0]?.error).toMatchObject({ code: -32700 });
    });
  });

  it("answers deep nesting anywhere in a request without breaking", async () => {
    const property = "deep nesting (up to 200 000 levels) in body, params, arguments, _meta";
    const where = fc.constantFrom("body", "params", "arguments", "meta", "id", "cursor");
    const depth = fc.oneof(
      fc.integer({ min: 1, max: 2_000 }),
      fc.integer({ min: 2_000, max: 200_000 }),
    );
    const kind = fc.constantFrom("array" as const, "object" as const);
    await fuzz(fc.tuple(where, depth, kind, server), 120, async ([at, levels, shape, path]) => {
      const deep = nested(levels, shape, "1");
      const meta = JSON.stringify(META);
      const text = {
        body: deep,
        params: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${deep}}`,
        arguments: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_numbers","arguments":{"a":${deep},"b":1},"_meta":${meta}}}`,
        meta: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":${deep}}}`,
        id: `{"jsonrpc":"2.0","id":${deep},"method":"tools/list","params":{"_meta":${meta}}}`,
        cursor: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":${deep},"_meta":${meta}}}`,
      }[at];
      const request = modernPost(text, path, {
        "Mcp-Method": at === "arguments" ? "tools/call" : "tools/list",
        ...(at === "arguments" ? { "Mcp-Name": "add_numbers" } : {}),
      });
      await answerOf(property, request);
    });
  });

  it("answers huge values in every place with a refusal or a result, never a crash", async () => {
    const property = "huge strings, numbers and arrays in fields";
    const huge = fc.oneof(
      fc.integer({ min: 1, max: 900_000 }).map((n) => "x".repeat(n)),
      fc.constantFrom(1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, -0),
      fc.integer({ min: 1, max: 100_000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
      fc
        .integer({ min: 1, max: 20_000 })
        .map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
    );
    const field = fc.constantFrom(
      "id",
      "method",
      "name",
      "a",
      "cursor",
      "uri",
      "meta-key",
      "progressToken",
    );
    await fuzz(fc.tuple(field, huge), 120, async ([at, value]) => {
      const params: Record<string, unknown> = {
        name: "add_numbers",
        arguments: { a: 1, b: 2 },
        _meta: { ...META },
      };
      let method = "tools/call";
      let id: unknown = 1;
      if (at === "id") id = value;
      else if (at === "method") method = typeof value === "string" ? value : "tools/call";
      else if (at === "name") params.name = value;
      else if (at === "a") params.arguments = { a: value, b: 2 };
      else if (at === "cursor") Object.assign(params, { cursor: value });
      else if (at === "uri") Object.assign(params, { uri: value });
      else if (at === "meta-key")
        (params._meta as Record<string, unknown>)[String(value).slice(0, 100_000)] = value;
      else (params._meta as Record<string, unknown>).progressToken = value;
      const body = JSON.stringify({ jsonrpc: "2.0", id, method, params });
      await answerOf(
        property,
        modernPost(body, "/everything", { "Mcp-Method": "tools/call", "Mcp-Name": "add_numbers" }),
      );
    });
  });
});
