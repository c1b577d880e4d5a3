import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import * as zm from "zod/mini";
import {
  prompt,
  resourceTemplate,
  tool,
  toolResult,
  type HandlerContext,
  type PromptDefinition,
  type ToolDefinition,
  type ToolResult,
  type ToolReturn,
} from "../../../../worker/mcp/index.ts";

// These checks run when the tests are type-checked (`npm run typecheck`); at run time they are
// no-ops. A `@ts-expect-error` line fails the type check when the error it expects goes away.
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

  it("types tool arguments from a zod/mini schema the same way", () => {
    tool({
      name: "t",
      input: zm.object({ a: zm.number(), tags: zm.optional(zm.array(zm.string())) }),
      run: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ a: number; tags?: string[] | undefined }>();
        return "";
      },
    });
  });

  it("types a tool without an input schema as taking no arguments it knows of", () => {
    tool({
      name: "t",
      run: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
        return "";
      },
    });
  });

  it("requires a tool with an output schema to return that shape, or a toolResult of it", () => {
    type Run = ToolDefinition<
      z.ZodObject<{ a: z.ZodNumber }>,
      z.ZodObject<{ sum: z.ZodNumber }>
    >["run"];
    expectTypeOf<ReturnType<Run>>().toEqualTypeOf<
      | Promise<{ sum: number } | ToolResult<{ sum: number }>>
      | { sum: number }
      | ToolResult<{ sum: number }>
    >();
    tool({
      name: "t",
      output: z.object({ sum: z.number() }),
      run: () => toolResult({ structuredContent: { sum: 1 } }),
    });
    tool({
      name: "t",
      output: z.object({ sum: z.number() }),
      // @ts-expect-error: the output schema wants a number
      run: () => ({ sum: "one" }),
    });
  });

  it("lets a tool without an output schema return text, content blocks or a toolResult", () => {
    type Run = ToolDefinition<z.ZodObject<{ a: z.ZodNumber }>>["run"];
    expectTypeOf<ReturnType<Run>>().toEqualTypeOf<Promise<ToolReturn> | ToolReturn>();
    tool({ name: "t", run: () => [{ type: "text", text: "hi" }] });
    // @ts-expect-error: a number is not a tool result
    tool({ name: "t", run: () => 42 });
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

  it("types prompt arguments from the args schema, and takes only string arguments", () => {
    prompt({
      name: "p",
      args: z.object({ topic: z.string(), tone: z.string().optional() }),
      get: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ topic: string; tone?: string | undefined }>();
        return "";
      },
    });
    expectTypeOf<PromptDefinition["get"]>().parameter(1).toEqualTypeOf<HandlerContext>();
    // @ts-expect-error: prompt arguments are strings on the wire
    prompt({ name: "p", args: z.object({ count: z.number() }), get: () => "" });
  });
});
