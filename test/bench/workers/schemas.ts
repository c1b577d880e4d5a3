import * as z from "zod";

// The tools' input schemas, shared by the MCP Workers under load so all convert the same zod.
export const EchoInput = z.object({ text: z.string().describe("Text to send back") });
export const ProgressInput = z.object({
  steps: z.number().int().min(1).max(100).describe("How many progress notifications to send"),
});
export const NoInput = z.object({});
export const NoopInput = z.object({ x: z.number().int().optional().describe("Ignored") });
