import type * as z from "zod/mini";

// What zod writes when neither the schema, nor a locale, nor the application gave a message:
// every issue of a zod/mini schema in a Worker that set no locale.
const UNSET = "Invalid input";

/** Zod issues of parsing `input` as one readable line: `path: message; path: message`. */
export function describeIssues(error: z.core.$ZodError, root: string, input: unknown): string {
  return error.issues
    .map(
      (issue) =>
        `${issue.path.length > 0 ? `${root}.${issue.path.join(".")}` : root}: ${issueText(issue, input)}`,
    )
    .join("; ");
}

/**
 * Zod issues of parsing `input` as one readable line for a person, `at path: message; ...`, at
 * most `shown` of them and how many more: the words are English whatever locale zod was given
 * (or none, as zod/mini has), so no module need set zod's global configuration to be read.
 */
export function issuesLine(error: z.core.$ZodError, input: unknown, shown = 5): string {
  const lines = error.issues
    .slice(0, shown)
    .map(
      (issue) =>
        `${issue.path.length > 0 ? `at ${issue.path.map(String).join(".")}: ` : ""}${issueText(issue, input)}`,
    );
  const rest = error.issues.length - shown;
  return lines.join("; ") + (rest > 0 ? ` (and ${rest} more)` : "");
}

/**
 * The message of an issue found parsing `input`: the one its schema, a locale or the
 * application set, else one written from its code in the words of zod's English locale, which
 * the runtime neither loads nor sets as zod's global configuration.
 */
export function issueText(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.message !== UNSET) return issue.message;
  switch (issue.code) {
    case "invalid_type": {
      // zod keeps no input in its issues: the value is found again by the issue's path.
      const value = issue.path.reduce<unknown>(
        (v, key) =>
          typeof v === "object" && v !== null
            ? (v as Record<PropertyKey, unknown>)[key]
            : undefined,
        input,
      );
      return typeMismatch(issue.expected, value);
    }
    case "invalid_value":
      return issue.values.length === 1
        ? `Invalid input: expected ${primitive(issue.values[0])}`
        : `Invalid option: expected one of ${issue.values.map(primitive).join("|")}`;
    case "too_big":
    case "too_small": {
      const small = issue.code === "too_small";
      const bound = small ? issue.minimum : issue.maximum;
      const than = issue.exact ? "exactly " : `${small ? ">" : "<"}${issue.inclusive ? "=" : ""}`;
      const unit = UNITS[issue.origin];
      const what = unit ? `have ${than}${bound} ${unit}` : `be ${than}${bound}`;
      return `Too ${small ? "small" : "big"}: expected ${issue.origin || "value"} to ${what}`;
    }
    case "invalid_format": {
      const detail = (key: string) => String(Reflect.get(issue, key));
      switch (issue.format) {
        case "starts_with":
          return `Invalid string: must start with "${detail("prefix")}"`;
        case "ends_with":
          return `Invalid string: must end with "${detail("suffix")}"`;
        case "includes":
          return `Invalid string: must include "${detail("includes")}"`;
        case "regex":
          return `Invalid string: must match pattern ${detail("pattern")}`;
        default:
          return `Invalid ${FORMATS[issue.format] ?? issue.format}`;
      }
    }
    case "not_multiple_of":
      return `Invalid number: must be a multiple of ${issue.divisor}`;
    case "unrecognized_keys":
      return `Unrecognized key${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.map(primitive).join(", ")}`;
    case "invalid_key":
      return `Invalid key in ${issue.origin}`;
    case "invalid_element":
      return `Invalid value in ${issue.origin}`;
    case "invalid_union": {
      const options = Reflect.get(issue, "options") as unknown[] | undefined;
      if (Array.isArray(options) && options.length > 0)
        return `Invalid discriminator value. Expected ${options.map((o) => `'${String(o)}'`).join(" | ")}`;
      return issue.inclusive === false ? `${UNSET}: more than one option matched` : UNSET;
    }
    default:
      return UNSET;
  }
}

/** What zod says of `value` where a value of type `expected` belongs. */
export function typeMismatch(expected: string, value: unknown): string {
  return `Invalid input: expected ${typeName(expected)}, received ${typeName(received(value), value)}`;
}

const UNITS: Record<string, string | undefined> = {
  string: "characters",
  file: "bytes",
  array: "items",
  set: "items",
  map: "entries",
};

// zod's format names as its English locale says them; the others (emoji, nanoid, cuid...) as they are.
const FORMATS: Record<string, string | undefined> = {
  regex: "input",
  email: "email address",
  url: "URL",
  uuid: "UUID",
  uuidv4: "UUIDv4",
  uuidv6: "UUIDv6",
  guid: "GUID",
  ulid: "ULID",
  xid: "XID",
  ksuid: "KSUID",
  datetime: "ISO datetime",
  date: "ISO date",
  time: "ISO time",
  duration: "ISO duration",
  ipv4: "IPv4 address",
  ipv6: "IPv6 address",
  mac: "MAC address",
  cidrv4: "IPv4 range",
  cidrv6: "IPv6 range",
  base64: "base64-encoded string",
  base64url: "base64url-encoded string",
  json_string: "JSON string",
  e164: "E.164 number",
  currency_code: "currency code",
  credit_card: "credit card number",
  iban: "IBAN",
  jwt: "JWT",
  template_literal: "input",
};

/** What a value is, in zod's words: `null`, `array`, `nan`, a class's name, or its typeof. */
function received(value: unknown): string {
  if (typeof value === "number" && Number.isNaN(value)) return "nan";
  if (typeof value !== "object") return typeof value;
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const name: unknown =
    Object.getPrototypeOf(value) === Object.prototype ? undefined : value.constructor?.name;
  return typeof name === "string" && name !== "" ? name : "object";
}

function typeName(type: string, input?: unknown): string {
  if (type === "number" && typeof input === "number" && !Number.isFinite(input))
    return String(input);
  return type === "nan" ? "NaN" : type;
}

function primitive(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  return typeof value === "string" ? `"${value}"` : String(value);
}
