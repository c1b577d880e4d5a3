import { isMcp, type Contender } from "./contenders.ts";
import { passes } from "./load/check.ts";
import { readReply, type Reply } from "./reply.ts";
import { BASELINE_CHECK, type Scenario } from "./scenarios.ts";
import { send } from "./serve.ts";
import type { BenchRequest } from "./wire.ts";

/** What is wrong with an MCP server's answer to a scenario, if anything. */
function mcpProblem(reply: Reply, scenario: Scenario): string | undefined {
  if (reply.status !== 200) return `HTTP ${reply.status}: ${reply.text.slice(0, 300)}`;
  const sse = reply.contentType.startsWith("text/event-stream");
  if (scenario.stream && !sse) return `expected an SSE stream, got ${reply.contentType}`;
  const { final } = reply;
  if (final === undefined) return "no JSON-RPC response in the answer";
  if (final.jsonrpc !== "2.0" || final.id !== 1) return "wrong jsonrpc or id";
  if (final.error !== undefined) return `error ${JSON.stringify(final.error).slice(0, 300)}`;
  return (
    scenario.verify(reply) ??
    (passes(reply.text, scenario.load) ? undefined : "fails the load check")
  );
}

/** What is wrong with a bare or Hono answer: it must be a small JSON-RPC result for id 1. */
function baselineProblem(reply: Reply): string | undefined {
  if (reply.status !== 200) return `HTTP ${reply.status}`;
  if (!reply.contentType.startsWith("application/json")) return `content type ${reply.contentType}`;
  const { final } = reply;
  if (final?.jsonrpc !== "2.0" || final.id !== 1 || final.result === undefined)
    return "not a JSON-RPC result for id 1";
  return passes(reply.text, BASELINE_CHECK) ? undefined : "fails the load check";
}

/**
 * Sends a scenario's request once and checks the answer in depth (official schema, result
 * contents, and that the cheap load check accepts it) before any load is counted. Returns what
 * is wrong, if anything.
 */
export async function answerProblem(
  url: string,
  request: BenchRequest,
  contender: Contender,
  scenario: Scenario,
): Promise<string | undefined> {
  try {
    const response = await send(url, request);
    if (!isMcp(contender)) return baselineProblem(await readReply(response));
    const reply = await readReply(response, scenario.request.method, scenario.era);
    return mcpProblem(reply, scenario);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** An answer as bytes, with the headers a client sees (not those of the connection). */
export type Answer = { bytes: Uint8Array; headers: [string, string][] };

const CONNECTION_HEADERS = new Set(["content-length", "date", "transfer-encoding", "connection"]);

export async function answerBytes(url: string, request: BenchRequest): Promise<Answer> {
  const response = await send(url, request);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
  const headers = [...response.headers].filter(([name]) => !CONNECTION_HEADERS.has(name));
  return { bytes, headers };
}

/** What differs between the same-bytes anchor's answer and edgemcp's, if anything. */
export async function sameBytesProblem(
  anchorUrl: string,
  subjectUrl: string,
  request: BenchRequest,
): Promise<string | undefined> {
  const [anchor, subject] = await Promise.all([
    answerBytes(anchorUrl, request),
    answerBytes(subjectUrl, request),
  ]);
  if (Buffer.compare(anchor.bytes, subject.bytes) !== 0)
    return `answers differ (${anchor.bytes.byteLength} bytes against edgemcp's ${subject.bytes.byteLength})`;
  const type = (a: Answer) => a.headers.find(([name]) => name === "content-type")?.[1];
  if (type(anchor) !== type(subject))
    return `content type ${type(anchor)} against ${type(subject)}`;
  return undefined;
}
