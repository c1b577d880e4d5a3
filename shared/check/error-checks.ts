import { ErrorCode } from "../protocol/errors.ts";
import type { CheckContext } from "./context.ts";
import { refusal } from "./expect.ts";
import { ABSENT_TOOL } from "./header-checks.ts";

/** Requests for things that do not exist: each gets its error, and nothing runs. */
export async function errorChecks(ctx: CheckContext): Promise<void> {
  const checks = [
    {
      id: "errors.unknown-method",
      title: "An unknown method is refused (HTTP 404, -32601)",
      run: async () =>
        refusal(
          await ctx.probe.modern("edgemcp/check-unknown-method"),
          ErrorCode.MethodNotFound,
          404,
        ),
    },
    {
      id: "errors.unknown-tool",
      title: "Calling an unknown tool is refused with -32602",
      capability: "tools" as const,
      run: async () =>
        refusal(
          await ctx.probe.modern("tools/call", { name: ABSENT_TOOL, arguments: {} }),
          ErrorCode.InvalidParams,
        ),
    },
    {
      id: "errors.unknown-prompt",
      title: "Getting an unknown prompt is refused with -32602",
      capability: "prompts" as const,
      run: async () =>
        refusal(
          await ctx.probe.modern("prompts/get", { name: "edgemcp_check_absent_prompt" }),
          ErrorCode.InvalidParams,
        ),
    },
  ];
  for (const check of checks) {
    if (ctx.applies("errors", check.id, check.title, check.capability)) {
      ctx.expect("errors", check.id, check.title, await check.run());
    }
  }
}
