import { acceptedContent, inputRequired, type McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";

/** Called when a `slow` call notices it was cancelled: its label and the step it stopped at. */
export type OnAbort = (label: string, step: number) => void;

/**
 * The tools and prompt that every SDK 2.4.0 test server offers: `echo`, `slow` (progress per
 * step, stops when cancelled), `confirm` (asks for input the 2026 way, with a plain
 * requestState) and the `greet` prompt.
 */
export function registerCommonV2(
  server: McpServer,
  options: { onStart?: (label: string) => void; onAbort: OnAbort; requestState: string },
): void {
  server.registerTool(
    "echo",
    { description: "Echoes text", inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  server.registerTool(
    "slow",
    {
      description: "Counts to steps, one per delayMs, with progress; stops when cancelled",
      inputSchema: z.object({
        steps: z.number().int().min(1),
        delayMs: z.number().int().min(0).default(50),
        label: z.string().default("default"),
      }),
    },
    async ({ steps, delayMs, label }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      options.onStart?.(label);
      for (let step = 1; step <= steps; step++) {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (ctx.mcpReq.signal.aborted) {
          options.onAbort(label, step);
          return { content: [{ type: "text", text: `aborted at step ${step}` }] };
        }
        if (token !== undefined) {
          await ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken: token, progress: step, total: steps },
          });
        }
      }
      return { content: [{ type: "text", text: `counted to ${steps}` }] };
    },
  );
  const Confirm = z.object({ ok: z.boolean() });
  server.registerTool(
    "confirm",
    { description: "Asks the user to confirm", inputSchema: z.object({ what: z.string() }) },
    ({ what }, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, "confirm", Confirm);
      if (answer === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({ message: `Do ${what}?`, requestedSchema: Confirm }),
          },
          requestState: options.requestState,
        });
      }
      return { content: [{ type: "text", text: answer.ok ? `did ${what}` : "kept" }] };
    },
  );
  server.registerPrompt(
    "greet",
    { description: "Greets someone", argsSchema: z.object({ name: z.string() }) },
    ({ name }) => ({ messages: [{ role: "user", content: { type: "text", text: `hi ${name}` } }] }),
  );
}
