import { McpError } from "../shared/client/index.ts";
import { isJsonObject } from "../shared/jsonrpc.ts";
import type { JsonObject } from "../shared/protocol/messages.ts";
import { ErrorCode } from "../shared/protocol/errors.ts";
import type { ElicitParams } from "../shared/protocol/input-requests.ts";

/** What `--answer` takes for each kind of input, as a person would start writing it. */
const EXAMPLES = {
  sampling: { words: "a reply from a model", answer: "the reply" },
  roots: { words: "the client's roots", answer: ["file:///path"] },
} as const;

type Undeclared = keyof typeof EXAMPLES;

/** A placeholder a person replaces: the first allowed value, else one of the field's type. */
function exampleValue(field: JsonObject): unknown {
  if (Array.isArray(field.enum) && field.enum.length > 0) return field.enum[0];
  const options = Array.isArray(field.oneOf) ? field.oneOf : [];
  const first: unknown = options[0];
  if (isJsonObject(first) && "const" in first) return first.const;
  if (field.type === "boolean") return true;
  if (field.type === "number" || field.type === "integer") return 0;
  if (field.type === "array") return [];
  return "…";
}

/**
 * The `--answer` that would accept a form: its required fields (all of them when none is
 * required) with placeholders; a URL elicitation is accepted without content.
 */
export function acceptExample(params: ElicitParams): string {
  if (params.mode === "url") return `{"elicitation":{"action":"accept"}}`;
  const { properties, required } = params.requestedSchema;
  const names = required?.length ? required : Object.keys(properties);
  const content = Object.fromEntries(
    names.flatMap((name) => {
      const field = properties[name];
      return field ? [[name, exampleValue(field)]] : [];
    }),
  );
  return JSON.stringify({ elicitation: { action: "accept", content } });
}

/**
 * The input kinds a failed call needed and the command did not declare: those a server's -32021
 * lists in its `requiredCapabilities`, or the one the client refused for want of a handler.
 */
function undeclaredInputs(error: unknown): Undeclared[] {
  if (!(error instanceof McpError) || !isJsonObject(error.data)) return [];
  let kinds: string[] = [];
  if (error.code === ErrorCode.MissingRequiredClientCapability) {
    const need = error.data.requiredCapabilities;
    kinds = isJsonObject(need) ? Object.keys(need) : [];
  } else if (error.kind === "client" && typeof error.data.capability === "string") {
    kinds = [error.data.capability];
  }
  return (Object.keys(EXAMPLES) as Undeclared[]).filter((kind) => kinds.includes(kind));
}

/** One `--answer` giving every kind named, and those kinds in words. */
function answerFor(kinds: readonly Undeclared[]): { words: string; json: string } {
  const words = kinds.map((kind) => EXAMPLES[kind].words).join(" and ");
  const json = JSON.stringify(Object.fromEntries(kinds.map((k) => [k, EXAMPLES[k].answer])));
  return { words, json };
}

/** A hint for a call that failed because the server asked for input the command cannot give. */
export function missingAnswerHint(error: unknown): string | undefined {
  const needed = undeclaredInputs(error);
  if (needed.length === 0) return undefined;
  const { words, json } = answerFor(needed);
  return `The tool needs ${words}: pass --answer '${json}'.`;
}

/**
 * A hint for a call of a tool the server does not list: some servers offer a tool only to a
 * client that declares sampling or roots, which this command does only when `--answer` gives
 * them.
 */
export function unlistedToolHint(
  name: string,
  url: URL,
  answers: Partial<Record<Undeclared, unknown>> | undefined,
): string {
  const undeclared = (Object.keys(EXAMPLES) as Undeclared[]).filter(
    (kind) => answers?.[kind] === undefined,
  );
  const listed = `The server lists no tool "${name}": see edgemcp list ${url.href} tools.`;
  if (undeclared.length === 0) return listed;
  const { json } = answerFor(undeclared);
  return `${listed} Some servers list a tool only for clients that can answer ${undeclared.join(" or ")}, which edgemcp declares when --answer gives them: --answer '${json}'.`;
}
