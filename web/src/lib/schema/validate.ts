import { Validator, type OutputUnit } from "@cfworker/json-schema";
import { getAt, isRecord } from "../json.ts";
import { hookPatterns, patternProblem } from "./pattern-hooks.ts";
import { asSchema, resolveRef, type Schema } from "./resolve.ts";

/**
 * One reason a value fails its schema, at a JSON Pointer into the value ("" is the root).
 * `unchecked`: not a failure but a check the page could not finish (the server still makes it).
 */
export type Problem = { pointer: string; message: string; unchecked?: true };

// Keywords whose failure only says "something inside failed": the inner errors say what.
const SUMMARIES = new Set([
  "properties",
  "patternProperties",
  "items",
  "prefixItems",
  "allOf",
  "$ref",
  "$dynamicRef",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "unevaluatedProperties",
  "unevaluatedItems",
]);
const BRANCH = /\/(?:oneOf|anyOf)\/(\d+)(?=\/|$)/g;

function problemOf(unit: OutputUnit, value: unknown): Problem | undefined {
  if (SUMMARIES.has(unit.keyword)) return undefined;
  const pointer = unit.instanceLocation.replace(/^#/, "");
  if (unit.keyword === "format") {
    const problem = patternProblem(unit.error, pointer, value);
    if (problem) return problem;
  }
  if (unit.keyword === "required") {
    const name = /"([^"]*)"/.exec(unit.error)?.[1];
    return name === undefined
      ? { pointer, message: unit.error }
      : { pointer: `${pointer}/${name}`, message: "Required." };
  }
  if (unit.keyword === "oneOf" || unit.keyword === "anyOf")
    return {
      pointer,
      message: unit.error.includes("(0 matches)")
        ? "Matches none of the allowed variants."
        : unit.error.replace(/^Instance /, "Value "),
    };
  if (unit.keyword === "additionalProperties") {
    const name = /"([^"]*)"/.exec(unit.error)?.[1];
    return {
      pointer: name === undefined ? pointer : `${pointer}/${name}`,
      message: "Not an allowed property.",
    };
  }
  if (unit.keyword === "false") return undefined;
  return { pointer, message: unit.error.replace(/^Instance /, "Value ") };
}

// Validators are built once per schema object: schemas come from a catalog and do not change.
const validators = new WeakMap<Schema, { validator: Validator; signature: string }>();

function unescape(segment: string): string {
  return decodeURIComponent(segment).replaceAll("~1", "/").replaceAll("~0", "~");
}

/** The schema at a keyword location, following `$ref` segments as the validator did. */
function schemaAt(root: Schema, location: string): unknown {
  let current: unknown = root;
  for (const segment of location
    .replace(/^#\/?/, "")
    .split("/")
    .filter((s) => s !== "")) {
    if (!isRecord(current)) return undefined;
    current = segment === "$ref" ? resolveRef(root, current) : current[unescape(segment)];
  }
  return current;
}

/** The branch a value was meant for: the first whose consts it carries, else whose type it has. */
function chosenBranch(branches: unknown[], value: unknown): number {
  const consts = (b: Schema) =>
    Object.entries(isRecord(b.properties) ? b.properties : {}).filter(
      ([, p]) => isRecord(p) && "const" in p,
    );
  const byConst = branches.findIndex((raw) => {
    const c = consts(asSchema(raw));
    return (
      c.length > 0 &&
      isRecord(value) &&
      c.every(([k, p]) => JSON.stringify(value[k]) === JSON.stringify(asSchema(p).const))
    );
  });
  if (byConst !== -1) return byConst;
  const kind =
    value === null
      ? "null"
      : Array.isArray(value)
        ? "array"
        : typeof value === "object"
          ? "object"
          : typeof value;
  return branches.findIndex((raw) => {
    const type = asSchema(raw).type;
    return (
      type === kind ||
      (Array.isArray(type) && type.includes(kind)) ||
      (kind === "number" && type === "integer")
    );
  });
}

/**
 * Errors inside a oneOf/anyOf branch are kept only for the branch the value was meant for (the
 * form's chosen variant); the others' failures are expected and would only confuse.
 */
function inChosenBranches(
  unit: OutputUnit,
  root: Schema,
  value: unknown,
  instances: Map<string, string>,
): boolean {
  for (const match of unit.keywordLocation.matchAll(BRANCH)) {
    const prefix = unit.keywordLocation.slice(
      0,
      match.index + match[0].length - match[1]!.length - 1,
    );
    const instance = instances.get(prefix);
    const branches = schemaAt(root, prefix);
    if (instance === undefined || !Array.isArray(branches)) return false;
    const at = getAt(
      value,
      instance
        .replace(/^#\/?/, "")
        .split("/")
        .filter((s) => s !== "")
        .map(unescape)
        .map((k) => (/^\d+$/.test(k) ? Number(k) : k)),
    );
    if (chosenBranch(branches, at) !== Number(match[1])) return false;
  }
  return true;
}

/**
 * Checks a value against a JSON Schema (2020-12 unless it says otherwise), no `eval`. Patterns
 * are tested off the page's thread (see patterns.ts): a value whose test has not answered yet
 * passes for now, and `onPatternVerdicts` says when to validate again.
 */
export function validate(schema: Schema, value: unknown): Problem[] {
  let validator = validators.get(schema);
  // A schema with patternProperties is rewritten for the value's keys (see hookPatterns).
  if (!validator || validator.signature !== "") {
    const hooked = hookPatterns(schema, value);
    if (!validator || validator.signature !== hooked.signature) {
      const draft =
        typeof schema.$schema === "string" && schema.$schema.includes("draft-07") ? "7" : "2020-12";
      validator = {
        validator: new Validator(hooked.schema, draft, false),
        signature: hooked.signature,
      };
      validators.set(schema, validator);
    }
  }
  let units: OutputUnit[];
  try {
    units = validator.validator.validate(value).errors;
  } catch (error) {
    return [
      {
        pointer: "",
        message: `The schema could not be used: ${error instanceof Error ? error.message : String(error)}`,
      },
    ];
  }
  // Where each failing oneOf/anyOf applied, by its keyword location.
  const instances = new Map(
    units
      .filter((u) => u.keyword === "oneOf" || u.keyword === "anyOf")
      .map((u) => [u.keywordLocation, u.instanceLocation]),
  );
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const unit of units) {
    if (
      unit.keywordLocation.search(BRANCH) !== -1 &&
      !inChosenBranches(unit, schema, value, instances)
    )
      continue;
    const problem = problemOf(unit, value);
    const key = problem && `${problem.pointer}\n${problem.message}`;
    if (problem && key && !seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}

/** Problems at or below a pointer (a field shows its own; an object its members' summary). */
export function problemsAt(problems: readonly Problem[], pointer: string, deep = false): Problem[] {
  return problems.filter(
    (p) => p.pointer === pointer || (deep && p.pointer.startsWith(pointer + "/")),
  );
}
