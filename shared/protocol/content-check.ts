// Content blocks checked by hand, as ContentBlockSchema (content.ts) takes them, so the runtime
// checks what a tool returns without linking zod's unions, literals and number checks into every
// Worker. Unknown members pass, as they pass zod's objects.

/** A problem: where (a path below the value checked) and what is wrong. */
type Problem = [path: string, words: string];
type Check = (value: unknown) => Problem | undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A plain object, as a zod record takes one (not a Date, a Map or a class instance). */
export function isPlainObject(value: unknown): boolean {
  if (!isObject(value)) return false;
  const ctor: unknown = value.constructor;
  if (typeof ctor !== "function") return true;
  const proto: unknown = ctor.prototype;
  return isObject(proto) && Object.hasOwn(proto, "isPrototypeOf");
}

const is =
  (test: (value: unknown) => boolean, words: string): Check =>
  (value) =>
    test(value) ? undefined : ["", words];
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined ? undefined : check(value);
const oneOf = (...allowed: unknown[]) =>
  is((value) => allowed.includes(value), `expected one of ${JSON.stringify(allowed)}`);

function arrayOf(check: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) return ["", "expected an array"];
    for (let i = 0; i < value.length; i++) {
      const problem = check(value[i]);
      if (problem) return [`[${i}]${problem[0]}`, problem[1]];
    }
    return undefined;
  };
}

function object(fields: Record<string, Check>): Check {
  return (value) => {
    if (!isObject(value)) return ["", "expected an object"];
    for (const [name, check] of Object.entries(fields)) {
      const problem = check(value[name]);
      if (problem) return [`.${name}${problem[0]}`, problem[1]];
    }
    return undefined;
  };
}

// Built by the first check rather than at load: most tools return text, which needs none.
let checksByType: Record<string, Check> | undefined;

/** Each content block's members by its `type`. */
function blockChecks(): Record<string, Check> {
  const string = is((value) => typeof value === "string", "expected a string");
  const number = is(Number.isFinite, "expected a number");
  const record = is(isPlainObject, "expected a JSON object");
  const ofString = optional(string);
  const common = {
    annotations: optional(
      object({
        audience: optional(arrayOf(oneOf("user", "assistant"))),
        priority: optional((value) =>
          typeof value === "number" && value >= 0 && value <= 1
            ? undefined
            : ["", "expected a number from 0 to 1"],
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
      icons: optional(
        arrayOf(
          object({
            src: string,
            mimeType: ofString,
            sizes: optional(arrayOf(string)),
            theme: optional(oneOf("light", "dark")),
          }),
        ),
      ),
      ...common,
    }),
    resource: object({
      resource: (value) => {
        const contents = { uri: string, mimeType: ofString, _meta: optional(record) };
        const text = object({ ...contents, text: string })(value);
        return text && object({ ...contents, blob: string })(value) && text;
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
  const problem = arrayOf((block) => {
    const type = isObject(block) ? block.type : undefined;
    const checks = (checksByType ??= blockChecks());
    const check =
      typeof type === "string" && Object.hasOwn(checks, type) ? checks[type] : undefined;
    return check
      ? check(block)
      : [".type", `expected one of ${JSON.stringify(Object.keys(checks))}`];
  })(blocks);
  return problem && `${name}${problem[0]}: ${problem[1]}`;
}
