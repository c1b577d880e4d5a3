import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import { CompleteParamsSchema } from "../../../shared/protocol/params.ts";
import type { Completer } from "../define/resource.ts";
import { parseParams, type MethodHandler } from "./method.ts";

const MAX_VALUES = 100;

export const complete: MethodHandler = async (call) => {
  const { ref, argument, context } = parseParams(CompleteParamsSchema, call);
  const { catalog } = call;
  let completers: Partial<Record<string, Completer>> | undefined;
  if (ref.type === "ref/prompt") {
    const prompt = catalog.prompts.get(ref.name);
    if (!prompt)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Unknown prompt "${ref.name}" in completion ref.`,
      );
    completers = prompt.definition.complete;
  } else {
    const template = catalog.templates.find((t) => t.definition.uriTemplate === ref.uri);
    if (!template) {
      if (catalog.resources.has(ref.uri)) return empty();
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Unknown resource template "${ref.uri}" in completion ref.`,
      );
    }
    completers = template.definition.complete;
  }
  const completer = completers?.[argument.name];
  if (!completer) return empty();
  const found = await completer(argument.value, { arguments: context?.arguments ?? {} }, call.ctx);
  const values = Array.isArray(found) ? found : found.values;
  const total = Array.isArray(found) ? values.length : (found.total ?? values.length);
  const hasMore = (!Array.isArray(found) && found.hasMore) || values.length > MAX_VALUES;
  return { completion: { values: values.slice(0, MAX_VALUES), total, hasMore } };
};

function empty() {
  return { completion: { values: [], total: 0, hasMore: false } };
}
