import { readFileSync } from "node:fs";
import type { McpClient, ToolArguments } from "../../shared/client/index.ts";
import { isJsonObject } from "../../shared/jsonrpc.ts";
import { CapturingFetch } from "../capture.ts";
import { connectClient, describeFailure } from "../client.ts";
import { printCurl } from "../curl.ts";
import { Exit, println, type Command, type Io } from "../io.ts";
import {
  CONNECTION_OPTIONS,
  parseCommand,
  requestHeaders,
  serverUrl,
  UsageError,
} from "../options.ts";
import { renderResult } from "../render.ts";

const HELP = `Usage: edgemcp call <url> <tool> [options]

Calls a tool and prints its result; exits 1 when the tool reports an error (isError) or the
server refuses the call. Progress goes to stderr.

Options:
  --args <json>                the arguments, a JSON object ("@file.json" reads a file, "-" stdin)
  --json                       print the whole result as JSON
  --curl                       print the equivalent curl command instead of calling
  -H, --header "Name: value"   send a header with every request (repeatable)
      --bearer <token>         send "Authorization: Bearer <token>" (or set EDGEMCP_TOKEN)`;

async function readText(source: string, io: Io): Promise<string> {
  if (source === "-") {
    let text = "";
    for await (const chunk of io.stdin) text += String(chunk);
    return text;
  }
  if (source.startsWith("@")) {
    try {
      return readFileSync(source.slice(1), "utf8");
    } catch (error) {
      throw new UsageError(`Cannot read ${source.slice(1)}: ${String(error)}`);
    }
  }
  return source;
}

/** The `--args` value as a JSON object. */
async function parseArguments(source: string | undefined, io: Io): Promise<ToolArguments> {
  if (source === undefined) return {};
  const text = await readText(source, io);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `--args is not valid JSON: ${error instanceof Error ? error.message : ""}`,
    );
  }
  if (!isJsonObject(value)) throw new UsageError('--args must be a JSON object, like {"a": 1}.');
  return value;
}

/** `edgemcp call`: one tool call, with its result for people or as JSON, or as a curl command. */
export const call: Command = async (args, io) => {
  const { values, positionals } = parseCommand(args, {
    ...CONNECTION_OPTIONS,
    args: { type: "string" },
    json: { type: "boolean" },
    curl: { type: "boolean" },
  });
  if (values.help) {
    println(io.stdout, HELP);
    return Exit.ok;
  }
  const url = serverUrl(positionals[0]);
  const name = positionals[1];
  if (name === undefined) throw new UsageError("Give the tool's name after the URL.");
  if (positionals.length > 2) throw new UsageError(`Unexpected argument "${positionals[2]}".`);
  const toolArgs = await parseArguments(values.args, io);
  const given = requestHeaders(values, io.env);
  const capture = new CapturingFetch();
  let client: McpClient;
  try {
    client = await connectClient(url, given, io, capture.fetch);
  } catch (error) {
    println(io.stderr, describeFailure(error));
    return Exit.failed;
  }
  if (values.curl) {
    capture.arm("tools/call");
    await client.callTool(name, toolArgs).catch(() => undefined);
    printCurl(io, capture.take(), given, client);
    return Exit.ok;
  }
  try {
    const { result } = await client.callTool(name, toolArgs, {
      onProgress: ({ progress, total, message }) =>
        println(
          io.stderr,
          `progress ${progress}${total === undefined ? "" : `/${total}`}${message ? ` ${message}` : ""}`,
        ),
    });
    if (values.json) println(io.stdout, JSON.stringify(result, null, 2));
    else println(io.stdout, renderResult(result));
    if (result.isError) {
      if (!values.json) println(io.stderr, `The tool "${name}" reported an error.`);
      return Exit.failed;
    }
    return Exit.ok;
  } catch (error) {
    println(io.stderr, describeFailure(error));
    return Exit.failed;
  } finally {
    await client.close();
  }
};
