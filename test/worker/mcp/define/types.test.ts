import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { prompt, resourceTemplate, tool } from "../../../../worker/mcp/index.ts";
import type { HandlerContext } from "../../../../worker/mcp/index.ts";
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
