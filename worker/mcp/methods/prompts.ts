import * as z from "zod/mini";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import { GetPromptParamsSchema, ListParamsSchema } from "../../../shared/protocol/params.ts";
import { promptList } from "../catalog/prompt-list.ts";
import { toPromptResult } from "../results/prompt.ts";
import { issueText } from "../schema/issues.ts";
import { parseParams, type MethodHandler } from "./method.ts";

export const listPrompts: MethodHandler = (call) => {
  const { cursor } = parseParams(ListParamsSchema, call);
  return call.era.page(promptList(call.catalog), cursor, call.seals);
};

export const getPrompt: MethodHandler = async (call) => {
  const params = parseParams(GetPromptParamsSchema, call);
  const prompt = call.catalog.prompts.get(params.name);
  if (!prompt) {
    const unavailable = call.catalog.definition.unlisted?.("prompt", params.name);
    if (unavailable)
      throw new RpcError(ErrorCode.InternalError, unavailable, { name: params.name });
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Unknown prompt "${params.name}". Call prompts/list to see the prompts this server offers.`,
      { name: params.name },
    );
  }
  const given = params.arguments ?? {};
  let args: Record<string, string | undefined> = given;
  const schema = prompt.definition.args;
  if (schema) {
    const parsed = z.safeParse(schema, given);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .map((issue) => {
          const name = issue.path.join(".");
          return name && !(name in given)
            ? `missing required argument "${name}"`
            : `${name || "arguments"}: ${issueText(issue, given)}`;
        })
        .join("; ");
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid arguments for prompt "${params.name}": ${issues}`,
      );
    }
    args = parsed.data;
  } else {
    const missing = (prompt.definition.arguments ?? []).filter(
      (a) => a.required && given[a.name] === undefined,
    );
    if (missing.length > 0) {
      const names = missing.map((a) => `"${a.name}"`).join(", ");
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid arguments for prompt "${params.name}": missing required argument ${names}`,
      );
    }
  }
  return toPromptResult(await prompt.definition.get(args, call.ctx));
};
