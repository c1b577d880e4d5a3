import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeHeaderValue } from "../../../shared/protocol/headers.ts";
import { MetaKey } from "../../../shared/protocol/meta.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { answerOf, fuzz, META, modernPost, reportCounts } from "./support.ts";

/** Real sealed values, issued by the Worker, that the properties forge from. */
let cursor = "";
let requestState = "";
let handle = "";

const ALICE = { Authorization: "Bearer token-alice" };
const BOB = { Authorization: "Bearer token-bob" };

beforeAll(async () => {
  const list = await exports.default.fetch(mcpRequest("resources/list"));
  cursor = (await list.json<{ result: { nextCursor: string } }>()).result.nextCursor;
  const asked = await exports.default.fetch(
    mcpRequest(
      "tools/call",
      { name: "test_input_required_result_request_state", arguments: {} },
      { capabilities: { elicitation: {} } },
    ),
  );
  requestState = (await asked.json<{ result: { requestState: string } }>()).result.requestState;
  const opened = await exports.default.fetch(
    mcpRequest(
      "tools/call",
      { name: "open_analysis", arguments: {} },
      { server: "analytics", headers: ALICE },
    ),
  );
  const result = await opened.json<{ result: { structuredContent: { analysis: string } } }>();
  handle = result.result.structuredContent.analysis;
  expect([cursor, requestState, handle].every((value) => value.length > 20)).toBe(true);
});

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".split("");

/** A sealed value, forged: truncated, extended, one character changed, spliced, or made up. */
function forged(real: () => string) {
  return fc.oneof(
    fc.nat().map((n) => real().slice(0, n % real().length)),
    fc
      .string({ unit: fc.constantFrom(...BASE64URL), minLength: 1, maxLength: 8 })
      .map((s) => real() + s),
    fc.tuple(fc.nat(), fc.constantFrom(...BASE64URL)).map(([n, c]) => {
      const text = real();
      const at = n % text.length;
      const swapped = text[at] === c ? (c === "A" ? "B" : "A") : c;
      return text.slice(0, at) + swapped + text.slice(at + 1);
    }),
    fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => {
      const text = real();
      return text.slice(0, a % text.length) + text.slice(b % text.length);
    }),
    fc.string({ unit: fc.constantFrom(...BASE64URL, ".", "=", "+", "/"), maxLength: 400 }),
    fc.constantFrom("", ".", "..", "v1.", "null", "=".repeat(64), "A".repeat(4096)),
  );
}

const TASK_ID = fc.oneof(
  fc.string({
    unit: fc.constantFrom(..."0123456789abcdef".split("")),
    minLength: 64,
    maxLength: 64,
  }),
  fc.string({ maxLength: 80 }),
);

describe(
  "fuzz: forged and truncated handles, cursors, requestState and task ids",
  { timeout: 300_000 },
  () => {
    afterAll(() => reportCounts("state"));

    it("refuses a forged list cursor with -32602, never a page", async () => {
      const property = "forged resources/list, tools/list and prompts/list cursors";
      const method = fc.constantFrom(
        "resources/list",
        "tools/list",
        "prompts/list",
        "resources/templates/list",
      );
      await fuzz(
        fc.tuple(
          forged(() => cursor),
          method,
        ),
        500,
        async ([value, listed]) => {
          const { status, messages } = await answerOf(
            property,
            modernPost({
              jsonrpc: "2.0",
              id: 1,
              method: listed,
              params: { cursor: value, _meta: META },
            }),
          );
          // Only the real cursor on its own list pages on (a forged one is never accepted).
          if (value !== cursor || listed !== "resources/list") {
            // (-32602 travels with HTTP 200 in 2026-07-28: only transport faults have a status.)
            expect(status).toBe(200);
            expect(messages[0]?.error).toMatchObject({ code: -32602 });
          }
        },
      );
    });

    it("refuses a forged requestState without running the tool's next round", async () => {
      const property = "forged requestState with inputResponses";
      await fuzz(
        forged(() => requestState),
        400,
        async (value) => {
          const params = {
            name: "test_input_required_result_request_state",
            arguments: {},
            requestState: value,
            inputResponses: { confirm: { action: "accept", content: { ok: true } } },
            _meta: { ...META, [MetaKey.clientCapabilities]: { elicitation: {} } },
          };
          const { messages } = await answerOf(
            property,
            modernPost({ jsonrpc: "2.0", id: 1, method: "tools/call", params }),
          );
          if (value !== requestState)
            expect(JSON.stringify(messages.at(-1))).not.toContain("state-ok");
        },
      );
    });

    it("refuses a forged analysis handle, and the real one for another caller", async () => {
      const property = "forged and foreign analysis handles";
      await fuzz(
        fc.tuple(
          forged(() => handle),
          fc.boolean(),
        ),
        400,
        async ([value, asBob]) => {
          const params = { name: "analysis_summary", arguments: { analysis: value }, _meta: META };
          const { status, messages } = await answerOf(
            property,
            modernPost(
              { jsonrpc: "2.0", id: 1, method: "tools/call", params },
              "/analytics",
              asBob ? BOB : ALICE,
            ),
          );
          if (value !== handle || asBob) {
            expect(status).toBe(200);
            expect(messages.at(-1)).toMatchObject({ result: { isError: true } });
          }
        },
      );
    });

    it("answers made-up task ids as unknown tasks", async () => {
      const property = "made-up task ids in tasks/get, tasks/update, tasks/cancel";
      const method = fc.constantFrom("tasks/get", "tasks/update", "tasks/cancel");
      await fuzz(fc.tuple(TASK_ID, method), 300, async ([taskId, called]) => {
        const params = {
          taskId,
          ...(called === "tasks/update" ? { inputResponses: {} } : {}),
          _meta: {
            ...META,
            [MetaKey.clientCapabilities]: { extensions: { "io.modelcontextprotocol/tasks": {} } },
          },
        };
        const { messages } = await answerOf(
          property,
          modernPost({ jsonrpc: "2.0", id: 1, method: called, params }, "/ops", {
            "Mcp-Name": encodeHeaderValue(taskId),
          }),
        );
        expect(messages[0]?.error).toMatchObject({ code: -32602 });
      });
    });
  },
);
