import { isJsonObject as isObject } from "../jsonrpc.ts";
import {
  arrayOf,
  ICON_FIELDS,
  is,
  object,
  oneOf,
  optional,
  problemsOf,
  record,
  string,
  type Check,
} from "./hand-check.ts";

// Content blocks checked by hand, as ContentBlockSchema (content.ts) takes them, so the runtime
// checks what a tool returns without linking zod's unions, literals and number checks into every
// Worker. Unknown members pass, as they pass zod's objects.

// Built by the first check rather than at load: most tools return text, which needs none.
let checksByType: Record<string, Check> | undefined;

/** Each content block's members by its `type`. */
function blockChecks(): Record<string, Check> {
  const number = is(Number.isFinite, "expected a number");
  const ofString = optional(string);
  const common = {
    annotations: optional(
      object({
        audience: optional(arrayOf(oneOf("user", "assistant"))),
        priority: optional(
          is(
            (value) => typeof value === "number" && value >= 0 && value <= 1,
            "expected a number from 0 to 1",
          ),
        ),
        lastModified: ofString,
      }),
    ),
    _meta: optional(record),
  };
  const media = object({ data: string, mimeType: string, ...common });

  return {
    text: object({ text: string, ...common }),
    image: media,
    audio: media,
    resource_link: object({
      uri: string,
      name: string,
      title: ofString,
      description: ofString,
      mimeType: ofString,
      size: optional(number),
      icons: optional(arrayOf(object(ICON_FIELDS))),
      ...common,
    }),
    resource: object({
      // Text contents or blob contents: what is wrong is said of the text kind.
      resource: (value, path, problems) => {
        const contents = { uri: string, mimeType: ofString, _meta: optional(record) };
        const text = problemsOf(object({ ...contents, text: string }), value, path);
        if (
          text.length > 0 &&
          problemsOf(object({ ...contents, blob: string }), value, path).length > 0
        )
          problems.push(...text);
      },
      ...common,
    }),
  };
}

/**
 * What is wrong with the first content block of `blocks` that ContentBlockSchema would refuse
 * (`name[1].text: expected a string`), or undefined when every block is valid content.
 */
export function contentProblem(blocks: unknown[], name: string): string | undefined {
  const block: Check = (value, path, problems) => {
    const type = isObject(value) ? value.type : undefined;
    const checks = (checksByType ??= blockChecks());
    const check =
      typeof type === "string" && Object.hasOwn(checks, type) ? checks[type] : undefined;
    if (check) check(value, path, problems);
    else problems.push(`${path}.type: expected one of ${JSON.stringify(Object.keys(checks))}`);
  };
  return problemsOf(arrayOf(block), blocks, name)[0];
}
