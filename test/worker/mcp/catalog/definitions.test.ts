import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  defineServer,
  prompt,
  resource,
  resourceTemplate,
  tool,
} from "../../../../worker/mcp/index.ts";

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
