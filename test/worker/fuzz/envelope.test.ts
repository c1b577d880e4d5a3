import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { toBase64 } from "../../../shared/base64.ts";
import { MetaKey } from "../../../shared/protocol/meta.ts";
import {
  answerOf,
  firstOf,
  fuzz,
  legacyPost,
  META,
  modernPost,
  reportCounts,
  safeHeader,
  SERVERS,
} from "./support.ts";

/** Methods of both eras, and some that are not (listen is fuzzed apart: its stream stays open). */
const METHODS = [
  "initialize",
  "ping",
  "server/discover",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "resources/subscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "tasks/get",
  "tasks/update",
  "tasks/cancel",
  "notifications/cancelled",
  "notifications/initialized",
  "notifications/roots/list_changed",
  "",
  "tools/",
  "__proto__",
  "constructor",
  "tools/call/extra",
];

/** Valid requests of the Worker's servers whose every field the wrong-type property breaks. */
const VALID: { path: string; body: Record<string, unknown>; headers?: Record<string, string> }[] = [
  { path: "/everything", body: request("tools/list", {}) },
  {
    path: "/everything",
    body: request("tools/call", { name: "add_numbers", arguments: { a: 1, b: 2 } }),
  },
  {
    path: "/everything",
    body: request("tools/call", {
      name: "test_x_mcp_header",
      arguments: { region: "eu", priority: 3, urgent: true },
    }),
    headers: { "Mcp-Param-Region": "eu", "Mcp-Param-Priority": "3", "Mcp-Param-Urgent": "true" },
  },
  { path: "/everything", body: request("resources/read", { uri: "test://template/123/data" }) },
  { path: "/everything", body: request("resources/list", {}) },
  {
    path: "/everything",
    body: request("prompts/get", { name: "test_simple_prompt", arguments: {} }),
  },
  {
    path: "/everything",
    body: request("completion/complete", {
      ref: { type: "ref/resource", uri: "test://template/{id}/data" },
      argument: { name: "id", value: "1" },
    }),
  },
  { path: "/everything", body: request("tasks/get", { taskId: "0".repeat(64) }) },
  {
    path: "/notes",
    body: request("tools/call", { name: "search_notes", arguments: { query: "a" } }),
  },
  {
    path: "",
    body: request("tools/call", { name: "everything__add_numbers", arguments: { a: 1, b: 2 } }),
  },
  { path: "", body: request("server/discover", {}) },
];

function request(method: string, params: Record<string, unknown>) {
  return { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: { ...META } } };
}

/** Every path into a JSON value, the value itself included ([]). */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const paths = [prefix];
  if (Array.isArray(value))
    value.forEach((item, i) => paths.push(...pathsOf(item, [...prefix, i])));
  else if (typeof value === "object" && value !== null)
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  return paths;
}

/** `value` with what is at `path` replaced by `replacement` (or removed, when undefined). */
function replaced(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy: unknown = structuredClone(value);
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (replacement === undefined) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

/** Values of every JSON type, and the awkward ones. */
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    null,
    "",
    0,
    -1,
    1.5,
    true,
    false,
    [],
    {},
    "null",
    "__proto__",
    "\u0000",
    undefined,
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
);

/** Header values with control characters, any ASCII and the base64 sentinel's pieces. */
const headerValue = fc.oneof(
  fc.string({
    unit: fc.integer({ min: 1, max: 0x7f }).map((c) => String.fromCharCode(c)),
    maxLength: 60,
  }),
  fc.constantFrom(
    "",
    " ",
    "\t",
    "=?base64?",
    "?=",
    "=?base64??=",
    "2026-07-28\u0001",
    "tools/call\u007f",
  ),
);

const HEADERS = [
  "MCP-Protocol-Version",
  "Mcp-Method",
  "Mcp-Name",
  "Mcp-Param-Region",
  "Mcp-Param-Priority",
  "Authorization",
  "Accept",
  "Content-Type",
  "Origin",
  "CF-Connecting-IP",
  "Last-Event-ID",
];

describe("fuzz: envelopes, fields and headers", { timeout: 300_000 }, () => {
  afterAll(() => reportCounts("envelope"));

  it("answers random JSON-RPC requests (any method, id and params) without breaking", async () => {
    const property = "random JSON-RPC requests: method, id, params, _meta";
    const id = fc.oneof(
      fc.integer(),
      fc.string({ maxLength: 20 }),
      fc.constantFrom(null, true, 1.5, [], {}),
    );
    const params = fc.oneof(
      fc.dictionary(
        fc.constantFrom(
          "name",
          "uri",
          "cursor",
          "arguments",
          "taskId",
          "ref",
          "argument",
          "level",
          "requestState",
          "inputResponses",
        ),
        anyValue,
      ),
      anyValue,
    );
    const meta = fc.oneof(
      fc.constant(META),
      fc.dictionary(fc.constantFrom(...Object.values(MetaKey)), anyValue),
      anyValue,
    );
    const withMeta = fc
      .tuple(params, meta)
      .map(([p, m]) =>
        typeof p === "object" && p !== null && !Array.isArray(p) ? { ...p, _meta: m } : p,
      );
    await fuzz(
      fc.tuple(
        fc.constantFrom(...METHODS),
        id,
        withMeta,
        fc.constantFrom(...SERVERS),
        fc.boolean(),
      ),
      800,
      async ([method, requestId, requestParams, path, notify]) => {
        const body = notify
          ? { jsonrpc: "2.0", method, params: requestParams }
          : { jsonrpc: "2.0", id: requestId, method, params: requestParams };
        await answerOf(property, modernPost(body, path));
      },
    );
  });

  it("answers a valid request with any one field of the wrong type", async () => {
    const property = "valid requests with one field replaced by a wrong type or removed";
    const mutation = fc.integer({ min: 0, max: VALID.length - 1 }).chain((i) => {
      const seed = VALID[i] ?? VALID[0];
      const paths = pathsOf(seed?.body);
      return fc.tuple(fc.constant(seed), fc.constantFrom(...paths), anyValue);
    });
    await fuzz(mutation, 1000, async ([seed, path, value]) => {
      if (!seed) return;
      const body = replaced(seed.body, path, value);
      await answerOf(property, modernPost(JSON.stringify(body) ?? "null", seed.path, seed.headers));
    });
  });

  it("answers headers holding control characters, any ASCII and sentinel pieces", async () => {
    const property = "control characters and ASCII junk in every routing header";
    const seeds = fc.constantFrom(...VALID);
    await fuzz(
      fc.tuple(seeds, fc.constantFrom(...HEADERS), headerValue),
      700,
      async ([seed, header, value]) => {
        const headers = { ...seed.headers, [header]: safeHeader(value) };
        await answerOf(property, modernPost(seed.body, seed.path, headers));
      },
    );
  });

  it("answers Mcp-Param base64 edge cases: bad alphabet, padding, UTF-8, mismatches", async () => {
    const property = "Mcp-Param-* and Mcp-Name base64 edge cases";
    const b64 = fc.string({
      unit: fc.constantFrom(
        ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ .!".split(""),
      ),
      maxLength: 24,
    });
    const payload = fc.oneof(
      b64,
      fc
        .string({ unit: "grapheme", maxLength: 12 })
        .map((text) => toBase64(new TextEncoder().encode(text))),
      fc.uint8Array({ maxLength: 12 }).map((bytes) => toBase64(bytes)),
      fc.constantFrom(
        "",
        "=",
        "==",
        "A",
        "AA",
        "AAA",
        "AAAA",
        "////",
        "gA==",
        "wA==",
        "7f8=",
        "ZXU",
      ),
    );
    const value = fc.oneof(
      payload.map((p) => `=?base64?${p}?=`),
      payload,
      fc.constantFrom("eu", " eu", "eu ", "EU", "=?BASE64?ZXU=?="),
    );
    const header = fc.constantFrom(
      "Mcp-Param-Region",
      "Mcp-Param-Priority",
      "Mcp-Param-Urgent",
      "Mcp-Name",
    );
    const seed = VALID[2];
    await fuzz(fc.tuple(header, value, fc.boolean()), 600, async ([name, headerText, drop]) => {
      if (!seed) return;
      const headers: Record<string, string> = { ...seed.headers, [name]: safeHeader(headerText) };
      if (drop) delete headers["Mcp-Param-Priority"];
      const { status } = await answerOf(property, modernPost(seed.body, seed.path, headers));
      // The headers must agree with the body: only the exact value (plain or encoded) passes.
      // (HTTP trims spaces and tabs around a header value before the server sees it.)
      const sent = safeHeader(headerText).replace(/^[ \t]+|[ \t]+$/g, "");
      const decoded = sent.startsWith("=?base64?") ? undefined : sent;
      if (name === "Mcp-Param-Region" && decoded !== undefined && decoded !== "eu")
        expect(status).toBe(400);
    });
  });

  it("answers a valid 2025 request with any one field of the wrong type", async () => {
    const property = "valid 2025 requests with one field replaced by a wrong type or removed";
    const legacy = VALID.map(({ path, body }) => {
      const { _meta: _dropped, ...params } = body.params as Record<string, unknown>;
      return { path, body: { ...body, params } };
    });
    const mutation = fc.integer({ min: 0, max: legacy.length - 1 }).chain((i) => {
      const seed = legacy[i] ?? legacy[0];
      return fc.tuple(fc.constant(seed), fc.constantFrom(...pathsOf(seed?.body)), anyValue);
    });
    await fuzz(mutation, 600, async ([seed, path, value]) => {
      if (!seed) return;
      const body = replaced(seed.body, path, value);
      await answerOf(property, legacyPost(JSON.stringify(body) ?? "null", seed.path));
    });
  });

  it("answers subscriptions/listen with any filter: a refusal, or a stream that acknowledges", async () => {
    const property = "subscriptions/listen with random filters (first message, then closed)";
    const flag = fc.oneof(fc.boolean(), anyValue);
    const filter = fc.oneof(
      fc.record(
        {
          toolsListChanged: flag,
          promptsListChanged: flag,
          resourcesListChanged: flag,
          resourceSubscriptions: fc.oneof(
            fc.array(fc.string({ maxLength: 30 }), { maxLength: 5 }),
            anyValue,
          ),
          taskStatus: fc.oneof(fc.array(fc.string({ maxLength: 30 }), { maxLength: 3 }), anyValue),
        },
        { requiredKeys: [] },
      ),
      anyValue,
    );
    await fuzz(
      fc.tuple(filter, fc.constantFrom(...SERVERS)),
      300,
      async ([notifications, path]) => {
        const body = {
          jsonrpc: "2.0",
          id: 1,
          method: "subscriptions/listen",
          params: { notifications, _meta: META },
        };
        const { status, messages } = await firstOf(property, modernPost(body, path));
        if (status === 200 && !("error" in (messages[0] ?? {})))
          expect(messages[0]?.method).toBe("notifications/subscriptions/acknowledged");
      },
    );
  });
});
