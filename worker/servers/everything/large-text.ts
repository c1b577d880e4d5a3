import * as z from "zod";
import { tool, ToolError } from "../../mcp/index.ts";

/** Anonymous callers get at most this much text; a token allows up to 8 MiB. */
const ANONYMOUS_TEXT_BYTES = 1024 * 1024;

export const largeText = tool({
  name: "test_large_text",
  title: "Large text",
  description: "Returns a text result of the requested size, in bytes",
  input: z.object({
    bytes: z
      .number()
      .int()
      .min(0)
      .max(8 * 1024 * 1024),
  }),
  annotations: { readOnlyHint: true },
  run: ({ bytes }, ctx) => {
    if (!ctx.caller && bytes > ANONYMOUS_TEXT_BYTES)
      throw new ToolError("Without a bearer token a text is at most 1 MiB; send one for 8 MiB.");
    return "x".repeat(bytes);
  },
});
