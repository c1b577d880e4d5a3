import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  defineServer,
  prompt,
  resource,
  tool,
  toolResult,
  ToolError,
  type RequestLog,
} from "../../../../worker/mcp/index.ts";
import { legacyRequest, mcpRequest } from "../../../support/mcp-request.ts";
import { serve } from "../../custom-server.ts";
const request = (method: string, params: Record<string, unknown> = {}) =>
  mcpRequest(method, params, { server: "t" });

describe("tool failures", () => {
  const logs: RequestLog[] = [];
  const server = serve(
    defineServer({
      name: "failures",
      version: "1.0.0",
      tools: [
        tool({
          name: "throws",
          description: "Throws a plain error",
          run: () => Promise.reject(new Error("disk full at postgres://admin:hunter2@db")),
        }),
        tool({
          name: "refuses",
          description: "Throws a ToolError",
          run: () => {
            throw new ToolError("No note 7: list the notes to find its id.");
          },
        }),
        tool({
          name: "bad_output",
          description: "Breaks its output schema",
          output: z.object({ n: z.number() }),
          run: () => ({ n: "x" }) as unknown as { n: number },
        }),
        tool({
          name: "bad_return",
          description: "Returns something JSON cannot carry",
          run: () => undefined as unknown as string,
        }),
        tool({
          name: "numbers",
          description: "Returns a plain array",
          run: () => [1, 2, 3] as unknown as string,
        }),
        tool({
          name: "rows",
          description: "Returns rows typed any, one with a `type` column",
          run: (): string => JSON.parse('[{"id":1,"type":"row"},{"id":2,"type":null}]'),
        }),
        tool({
          name: "scalar",
          description: "Returns a number",
          run: () => 42 as unknown as string,
        }),
        tool({
          name: "broken_block",
          description: "Returns a text block without text",
          run: () => [{ type: "text" }] as unknown as string,
        }),
        tool({
          name: "blocks",
          description: "Returns content blocks",
          run: () => [
            { type: "text", text: "a" },
            { type: "resource_link", uri: "t://x", name: "x" },
          ],
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
    { log: (entry) => logs.push(entry) },
  );

  it("turns a plain exception into an isError result that keeps its text from the model", async () => {
    const { final } = await server.send(request("tools/call", { name: "throws" }), "tools/call");
    expect(final?.result).toMatchObject({ isError: true, content: [{ type: "text" }] });
    const text: string = final?.result.content[0].text;
    expect(text).not.toMatch(/hunter2|disk full/);
    const id =
      /^Tool "throws" failed because of an error inside the server \(correlation id ([0-9a-f]{16})\)\. Its details are in the server's log\.$/.exec(
        text,
      )?.[1];
    expect(id).toBeDefined();
    // The log line with the same id has the details.
    const line = logs.find((entry) => entry.correlationId === id);
    expect(line).toMatchObject({
      level: "error",
      method: "tools/call",
      name: "throws",
      status: "tool_error",
      error: expect.stringContaining("disk full at postgres://admin:hunter2@db"),
    });
  });

  it("sends a ToolError's message to the model as written, and logs it as the tool's answer", async () => {
    const { final } = await server.send(request("tools/call", { name: "refuses" }), "tools/call");
    expect(final?.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "No note 7: list the notes to find its id." }],
    });
    expect(logs.at(-1)).toMatchObject({ level: "info", name: "refuses", status: "tool_error" });
    expect(logs.at(-1)).not.toHaveProperty("error");
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

  it.each([
    ["numbers", "[1,2,3]"],
    ["rows", '[{"id":1,"type":"row"},{"id":2,"type":null}]'],
    ["scalar", "42"],
  ])("sends %s, a value that is not content, as its JSON text", async (name, text) => {
    for (const era of ["2026", "2025"] as const) {
      const sent =
        era === "2026"
          ? request("tools/call", { name })
          : legacyRequest("tools/call", { name }, { server: "t" });
      const { final } = await server.send(sent, "tools/call", era);
      expect(final?.result).toMatchObject({ content: [{ type: "text", text }] });
      expect(final?.result).not.toHaveProperty("isError");
    }
  });

  it("sends content blocks as given", async () => {
    const { final } = await server.send(request("tools/call", { name: "blocks" }), "tools/call");
    expect(final?.result).toMatchObject({
      content: [
        { type: "text", text: "a" },
        { type: "resource_link", uri: "t://x", name: "x" },
      ],
    });
  });

  it("answers a content block that is not valid content with -32603", async () => {
    const { final } = await server.send(
      request("tools/call", { name: "broken_block" }),
      "tools/call",
    );
    expect(final?.error).toMatchObject({
      code: -32603,
      message: 'Tool "broken_block" returned a value the runtime cannot send (a server bug).',
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
  const logs: RequestLog[] = [];
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
    { log: (entry) => logs.push(entry) },
  );

  it.each([
    ["resources/read", { uri: "t://vault" }],
    ["prompts/get", { name: "vault" }],
  ])(
    "answer %s with a generic -32603 that keeps the error's text private",
    async (method, params) => {
      const { status, final } = await server.send(request(method, params), method);
      expect(status).toBe(200);
      const correlationId: string = final?.error?.data?.correlationId;
      expect(correlationId).toMatch(/^[0-9a-f]{16}$/);
      expect(final?.error).toEqual({
        code: -32603,
        message: `Internal error: the server failed while handling this request (correlation id ${correlationId}).`,
        data: { correlationId },
      });
      expect(JSON.stringify(final)).not.toContain("secret");
      expect(logs.find((entry) => entry.correlationId === correlationId)).toMatchObject({
        level: "error",
        method,
        status: "error",
        code: -32603,
        error: expect.stringContaining("secret: the vault code is 1234"),
      });
    },
  );
});
