import { readFileSync } from "node:fs";
import { McpError, type McpClient, type ToolArguments } from "../../shared/client/index.ts";
import { ErrorCode } from "../../shared/protocol/errors.ts";
import { errorText } from "../../shared/error-text.ts";
import { isJsonObject } from "../../shared/jsonrpc.ts";
import { missingAnswerHint, unlistedToolHint } from "../answer-hints.ts";
import { answerHandlers, parseAnswers, type Answers } from "../answers.ts";
import { signedInFetch } from "../auth/signed-in.ts";
import { CapturingFetch } from "../capture.ts";
import { CallStop } from "../call-stop.ts";
import { connectOrReport, describeFailure } from "../client.ts";
import { printCurl } from "../curl.ts";
import { Exit, println, type Io } from "../io.ts";
import { jsonText } from "../terminal-text.ts";
import { serverCommand, UsageError } from "../options.ts";
import { logLine, progressLine, renderResult, taskLine } from "../render.ts";

const HELP = `Usage: edgemcp call <url> <tool> [options]

Calls a tool and prints its result; exits 1 when the tool reports an error (isError) or the
server refuses the call. Progress, what the server asks for during the call and, for a call
that runs as a task (a 2025-11-25 tool whose taskSupport is "required"), each status of the
task go to stderr. Ctrl-C cancels the call on the server (a task with tasks/cancel) and
exits 130; a second Ctrl-C quits at once.

Options:
  --args <json>                the arguments, a JSON object ("@file.json" reads a file, "-" stdin)
  --answer <json>              what to answer when the server asks for input during the call:
                               {"elicitation": {"action": "accept", "content": {...}},
                                "sampling": "the model's reply", "roots": ["file:///work"]}
                               ("@file.json", "-"); without it, elicitations are declined
                               and sampling and roots are not offered
  --json                       print the whole result as JSON
  --curl                       print the equivalent curl command instead of calling
  --timeout <ms>               how long connecting, and then the call (a task's polls
                               included), may wait for its answer (default: no limit);
                               a call still running then is cancelled on the server
  -H, --header "Name: value"   send a header with every request (repeatable)
      --bearer <token>         send "Authorization: Bearer <token>" (or set EDGEMCP_TOKEN)
      --max-reply-bytes <n>    read at most n bytes of one reply (default 16777216, 16 MiB)`;

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
      throw new UsageError(`Cannot read ${source.slice(1)}: ${errorText(error)}`);
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

/**
 * After a failed call, whether the server lists the tool at all; when it does not, a hint
 * (a server may offer a tool only to clients that can answer sampling or roots).
 */
async function unlistedHint(
  client: McpClient,
  name: string,
  url: URL,
  answers: Answers | undefined,
): Promise<string | undefined> {
  try {
    const { result } = await client.listTools();
    return result.tools.some((tool) => tool.name === name)
      ? undefined
      : unlistedToolHint(name, url, answers);
  } catch {
    return undefined;
  }
}

/** `edgemcp call`: one tool call, with its result for people or as JSON, or as a curl command. */
export const call = serverCommand({
  help: HELP,
  accepts: ["args", "answer", "json", "curl", "timeout", "max-reply-bytes"],
  rest: 1,
  run: async ({ values, url, rest, given, maxReplyBytes, timeoutMs }, io) => {
    const name = rest[0];
    if (name === undefined) throw new UsageError("Give the tool's name after the URL.");
    if (values.args === "-" && values.answer === "-")
      throw new UsageError("--args and --answer cannot both read stdin.");
    const toolArgs = await parseArguments(values.args, io);
    const answers =
      values.answer === undefined ? undefined : parseAnswers(await readText(values.answer, io));
    const capture = new CapturingFetch(
      signedInFetch(url, given, io.env, (u, init) => fetch(u, init)),
    );
    const client = await connectOrReport(
      { url, given, maxReplyBytes, timeoutMs },
      io,
      capture.fetch,
      answerHandlers(answers, io),
      !values.curl,
    );
    if (!client) return Exit.failed;
    if (values.curl) {
      capture.arm("tools/call");
      await client.callTool(name, toolArgs).catch(() => undefined);
      printCurl(io, capture.take(), given, client);
      return Exit.ok;
    }
    let lastTaskLine = "";
    const stop = new CallStop(io, timeoutMs);
    try {
      const { result } = await client.callTool(name, toolArgs, {
        signal: stop.signal,
        onProgress: (progress) => println(io.stderr, progressLine(progress)),
        onLog: (message) => println(io.stderr, logLine(message)),
        // Each poll reports the task; only a change of status or message is worth a line.
        onStatus: (task) => {
          stop.taskId = task.taskId;
          const line = taskLine(task);
          if (line !== lastTaskLine) println(io.stderr, line);
          lastTaskLine = line;
        },
      });
      println(io.stdout, values.json ? jsonText(result) : renderResult(result));
      if (!result.isError) return Exit.ok;
      if (!values.json) println(io.stderr, `The tool "${name}" reported an error.`);
      const unlisted = await unlistedHint(client, name, url, answers);
      if (unlisted) println(io.stderr, unlisted);
      return Exit.failed;
    } catch (error) {
      const stopped = stop.stopped();
      if (stopped) {
        println(io.stderr, stopped.text);
        return stopped.code;
      }
      println(io.stderr, describeFailure(error));
      const invalid = error instanceof McpError && error.code === ErrorCode.InvalidParams;
      const hint =
        missingAnswerHint(error) ??
        (invalid ? await unlistedHint(client, name, url, answers) : undefined);
      if (hint) println(io.stderr, hint);
      return Exit.failed;
    } finally {
      await client.close();
      stop.dispose();
    }
  },
});
