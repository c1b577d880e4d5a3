import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  defineServer,
  DefinitionError,
  prompt,
  resource,
  resourceTemplate,
  tool,
} from "../../../../worker/mcp/index.ts";

describe("server definitions are checked when the server is defined", () => {
  const broken = (definition: Parameters<typeof defineServer>[0]) => () => defineServer(definition);

  it.each([
    [
      "a duplicate tool name",
      { tools: [tool({ name: "a", run: () => "" }), tool({ name: "a", run: () => "" })] },
      /tool "a" is defined twice: give each tool its own name/,
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
    [
      "a prompt name with spaces",
      { prompts: [prompt({ name: "sum up", get: () => "" })] },
      /prompt "sum up": a prompt name is 1-128 characters .* rename it \(e\.g\. "sum_up"\)/,
    ],
    [
      "a resource URI without a scheme",
      { resources: [resource({ uri: "notes", name: "x", read: () => "" })] },
      /resource "notes": a resource URI is absolute, with a scheme/,
    ],
    [
      "a duplicate template",
      {
        resourceTemplates: [
          resourceTemplate({ uriTemplate: "a://{x}", name: "x", read: () => "" }),
          resourceTemplate({ uriTemplate: "a://{x}", name: "y", read: () => "" }),
        ],
      },
      /resource template "a:\/\/\{x\}" is defined twice/,
    ],
    [
      "an input that is a zod string",
      {
        tools: [
          tool({
            name: "n",
            input: z.string() as unknown as z.ZodObject,
            run: () => "",
          }),
        ],
      },
      /tool "n": arguments are a JSON object, so the input schema's root needs type "object" \(it has type "string"\); wrap the value in an object/,
    ],
    [
      "an input that is a plain JSON Schema",
      {
        tools: [
          tool({
            name: "n",
            input: { type: "object" } as unknown as z.ZodObject,
            run: () => "",
          }),
        ],
      },
      /tool "n": input must be a zod object schema .* pass it as inputSchema/,
    ],
    [
      "a prompt not made by prompt() (it would bring no prompts methods)",
      { prompts: [{ name: "p", get: () => "" } as unknown as ReturnType<typeof prompt>] },
      /prompt "p": make it with prompt\(\{ ... \}\), which brings the prompts methods/,
    ],
    [
      "a resource not made by resource()",
      {
        resources: [
          { uri: "a://b", name: "b", read: () => "" } as unknown as ReturnType<typeof resource>,
        ],
      },
      /resource "a:\/\/b": make it with resource\(\{ ... \}\), which brings the resources methods/,
    ],
    [
      "a template not made by resourceTemplate()",
      {
        resourceTemplates: [
          { uriTemplate: "a://{x}", name: "x", read: () => "" } as unknown as ReturnType<
            typeof resourceTemplate
          >,
        ],
      },
      /resource template "a:\/\/\{x\}": make it with resourceTemplate\(\{ ... \}\)/,
    ],
  ])("rejects %s", (_what, extra, message) => {
    expect(broken({ name: "bad", version: "1", ...extra })).toThrow(message);
  });

  it("lists every problem in one DefinitionError, each with its fix", () => {
    let error: unknown;
    try {
      defineServer({
        name: "many",
        version: "1",
        pageSize: 0,
        tools: [
          tool({ name: "a b", run: () => "" }),
          tool({ name: "ok", run: () => "" }),
          tool({ name: "ok", run: () => "" }),
        ],
        resourceTemplates: [resourceTemplate({ uriTemplate: "a://{x", name: "x", read: () => "" })],
        prompts: [prompt({ name: "p", get: () => "" }), prompt({ name: "p", get: () => "" })],
      });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(DefinitionError);
    const { message, problems } = error as DefinitionError;
    expect(problems).toHaveLength(5);
    expect(message.split("\n")[0]).toBe('Server "many" has 5 problems in its definition:');
    expect(message).toMatch(
      /^ {2}- the server: pageSize for tools must be a positive integer \(it is 0\)\.$/m,
    );
    expect(message).toMatch(
      /^ {2}- tool "a b": a tool name is 1-128 characters .*rename it \(e\.g\. "a_b"\)\.$/m,
    );
    expect(message).toMatch(/^ {2}- tool "ok" is defined twice: give each tool its own name\.$/m);
    expect(message).toMatch(/^ {2}- resource template "a:\/\/\{x": .*unclosed/m);
    expect(message).toMatch(
      /^ {2}- prompt "p" is defined twice: give each prompt its own name\.$/m,
    );
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
