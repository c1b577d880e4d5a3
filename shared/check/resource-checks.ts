import { issuesLine } from "../zod-issues.ts";
import { ErrorCode } from "../protocol/errors.ts";
import { ReadResourceResultSchema } from "../protocol/results.ts";
import type { CheckContext } from "./context.ts";
import { cacheHintProblem, described, failure } from "./expect.ts";
import type { Exchange } from "./probe.ts";

const ABSENT_RESOURCE = "edgemcp-check://absent/resource";

/** What is wrong with a read of a listed resource; undefined when it is a valid result. */
function readProblem(exchange: Exchange): string | undefined {
  const failed = failure(exchange);
  if (failed || !exchange.result) return failed;
  const result = exchange.result;
  if (result.resultType === "input_required") return undefined;
  const parsed = ReadResourceResultSchema.safeParse(result);
  if (!parsed.success) return issuesLine(parsed.error, result);
  if (result.resultType !== "complete") return `resultType is ${JSON.stringify(result.resultType)}`;
  if (parsed.data.contents.length === 0) return "contents is empty";
  return cacheHintProblem(result);
}

/** What is wrong with the answer to a read of a resource that does not exist. */
function notFoundProblem(exchange: Exchange): { problem?: string; status: "fail" | "warn" } {
  if (exchange.error?.code === ErrorCode.InvalidParams) return { status: "fail" };
  if (exchange.error?.code === ErrorCode.LegacyResourceNotFound) {
    return {
      problem: "answered the retired 2025 code -32002; 2026-07-28 uses -32602",
      status: "warn",
    };
  }
  const contents = exchange.result?.contents;
  if (Array.isArray(contents) && contents.length === 0) {
    return { problem: "answered empty contents instead of an error", status: "fail" };
  }
  return { problem: `expected error -32602, got ${described(exchange)}`, status: "fail" };
}

/** Reading the first listed resource, and one that does not exist. */
export async function resourceChecks(ctx: CheckContext): Promise<void> {
  const readTitle = "Reading a listed resource gives contents with cache hints";
  const missingTitle = "Reading a resource that does not exist is refused with -32602";
  if (!ctx.applies("resources", "resources.read", readTitle, "resources")) {
    ctx.applies("resources", "resources.not-found", missingTitle, "resources");
    return;
  }
  const uri = ctx.found.firstResource;
  if (uri === undefined)
    ctx.record("resources", "resources.read", readTitle, "skip", "no resource is listed");
  else
    ctx.expect(
      "resources",
      "resources.read",
      readTitle,
      readProblem(await ctx.probe.modern("resources/read", { uri })),
    );
  const missing = notFoundProblem(
    await ctx.probe.modern("resources/read", { uri: ABSENT_RESOURCE }),
  );
  ctx.expect("resources", "resources.not-found", missingTitle, missing.problem, missing.status);
}
