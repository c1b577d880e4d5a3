import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { errorText } from "../shared/error-text.ts";
import { isHeaderToken } from "../shared/protocol/headers.ts";
import { Exit, println, type Command, type Io } from "./io.ts";

/** A mistake in how the command was called: printed with a hint, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** Where a header came from: typed on the command line, or read from the environment. */
export type HeaderSource = "flag" | "EDGEMCP_TOKEN" | "EDGEMCP_HEADERS";

/** The headers sent with every request, and where each came from (for printing them safely). */
export type RequestHeaders = {
  headers: Record<string, string>;
  sources: Record<string, HeaderSource>;
};

/** Every option of the commands; each command accepts the connection options and some more. */
const OPTIONS = {
  header: { type: "string", short: "H", multiple: true },
  bearer: { type: "string" },
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
  curl: { type: "boolean" },
  args: { type: "string" },
  answer: { type: "string" },
  origin: { type: "string" },
  timeout: { type: "string" },
  "max-reply-bytes": { type: "string" },
} as const;

/** The options only some commands take. */
export type OwnOption =
  "json" | "curl" | "args" | "answer" | "origin" | "timeout" | "max-reply-bytes";
const OWN_OPTIONS: readonly string[] = [
  "json",
  "curl",
  "args",
  "answer",
  "origin",
  "timeout",
  "max-reply-bytes",
];

/**
 * Node's `parseArgs`, strict, with positionals and tokens; a mistake is a `UsageError` (an
 * unknown option named alone: Node's words about positionals after `--` mislead here).
 */
export function parseCommandLine<T extends ParseArgsOptionsConfig>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(unknownOption(args, options, error) ?? errorText(error));
  }
}

/** For Node's unknown-option error, the option as it was typed. */
function unknownOption(
  args: string[],
  options: ParseArgsOptionsConfig,
  error: unknown,
): string | undefined {
  if (!(error instanceof Error) || !("code" in error)) return undefined;
  if (error.code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") return undefined;
  const { tokens } = parseArgs({ args, options, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind === "option" && !Object.hasOwn(options, token.name))
      return `Unknown option '${token.rawName}'.`;
  }
  return undefined;
}

/** Parses a command line strictly: unknown options and missing values are usage errors. */
function parseLine(args: string[], accepts: readonly OwnOption[]) {
  const parsed = parseCommandLine(args, OPTIONS);
  for (const token of parsed.tokens) {
    if (token.kind !== "option" || !OWN_OPTIONS.includes(token.name)) continue;
    if (!(accepts as readonly string[]).includes(token.name)) {
      throw new UsageError(`Unknown option '${token.rawName}'.`);
    }
  }
  return parsed;
}

/** Splits `Name: value`; the name must be an HTTP token. */
function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(":");
  const name = colon === -1 ? "" : text.slice(0, colon).trim();
  if (!isHeaderToken(name)) {
    throw new UsageError(`--header takes "Name: value", got ${JSON.stringify(text)}.`);
  }
  return [name, text.slice(colon + 1).trim()];
}

/** `EDGEMCP_HEADERS`: a JSON object of header names to string values. */
function environmentHeaders(text: string | undefined): Record<string, string> {
  if (text === undefined || text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError('EDGEMCP_HEADERS must be a JSON object, e.g. {"X-Api-Key":"..."}.');
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError('EDGEMCP_HEADERS must be a JSON object, e.g. {"X-Api-Key":"..."}.');
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== "string")
      throw new UsageError(`EDGEMCP_HEADERS.${name} must be a string.`);
    headers[parseHeader(`${name}: ${value}`)[0]] = value;
  }
  return headers;
}

/**
 * The request headers: `EDGEMCP_HEADERS`, then `EDGEMCP_TOKEN` as a bearer token, then the
 * flags (`--header`, `--bearer`), later ones winning. Names are compared case-insensitively.
 */
export function requestHeaders(
  values: { header?: string[] | undefined; bearer?: string | undefined },
  env: NodeJS.ProcessEnv,
): RequestHeaders {
  const result: RequestHeaders = { headers: {}, sources: {} };
  const set = (name: string, value: string, source: HeaderSource) => {
    for (const existing of Object.keys(result.headers)) {
      if (existing.toLowerCase() === name.toLowerCase()) {
        delete result.headers[existing];
        delete result.sources[existing];
      }
    }
    result.headers[name] = value;
    result.sources[name] = source;
  };
  for (const [name, value] of Object.entries(environmentHeaders(env.EDGEMCP_HEADERS))) {
    set(name, value, "EDGEMCP_HEADERS");
  }
  if (env.EDGEMCP_TOKEN) set("Authorization", `Bearer ${env.EDGEMCP_TOKEN}`, "EDGEMCP_TOKEN");
  for (const text of values.header ?? []) set(...parseHeader(text), "flag");
  if (values.bearer !== undefined) set("Authorization", `Bearer ${values.bearer}`, "flag");
  return result;
}

/** The server URL argument: http(s) only. */
export function serverUrl(text: string | undefined): URL {
  if (text === undefined)
    throw new UsageError("Give the server's URL, e.g. https://example.com/mcp.");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${JSON.stringify(text)} is not a URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`The URL must be http: or https:, got ${url.protocol}`);
  }
  return url;
}

/**
 * `--max-reply-bytes`: the most one reply (a JSON body or one SSE event) may weigh before the
 * client stops reading it; undefined keeps the client's default.
 */
export function maxReplyBytes(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const bytes = /^[0-9]+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new UsageError(
      `--max-reply-bytes takes a positive whole number of bytes (e.g. 67108864 for 64 MiB), got ${JSON.stringify(text)}.`,
    );
  }
  return bytes;
}

/** `--timeout`: how long one request may wait for its answer, in milliseconds. */
export function timeoutMs(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Number(text);
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw new UsageError("--timeout takes milliseconds, e.g. 15000.");
  return ms;
}

/** What a command's run gets: its options, the server URL, the arguments after it, the headers. */
export type CommandLine = {
  values: ReturnType<typeof parseLine>["values"];
  url: URL;
  /** The positional arguments after the URL. */
  rest: string[];
  given: RequestHeaders;
  /** `--max-reply-bytes`, where the command takes it and it was given. */
  maxReplyBytes?: number | undefined;
  /** `--timeout`, where the command takes it and it was given. */
  timeoutMs?: number | undefined;
};

/**
 * A command that talks to one server: `--help` prints `help`, the URL comes first with at most
 * `rest` arguments after it, and the connection options (`--header`, `--bearer`, the
 * environment) become its request headers.
 */
export function serverCommand(spec: {
  help: string;
  accepts: readonly OwnOption[];
  rest: number;
  run: (line: CommandLine, io: Io) => Promise<number>;
}): Command {
  return async (args, io) => {
    const { values, positionals } = parseLine(args, spec.accepts);
    if (values.help) {
      println(io.stdout, spec.help);
      return Exit.ok;
    }
    if (values.json && values.curl) {
      throw new UsageError(
        "--json and --curl do not go together: --curl prints the request, not its answer.",
      );
    }
    const extra = positionals[1 + spec.rest];
    if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
    const url = serverUrl(positionals[0]);
    const given = requestHeaders(values, io.env);
    const line: CommandLine = {
      values,
      url,
      rest: positionals.slice(1),
      given,
      maxReplyBytes: maxReplyBytes(values["max-reply-bytes"]),
      timeoutMs: timeoutMs(values.timeout),
    };
    return spec.run(line, io);
  };
}
