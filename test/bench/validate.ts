import type { Contender } from "./contenders.ts";
import { passes } from "./load/check.ts";
import { readReply, type Reply } from "./reply.ts";
import { BASELINE_CHECK, type Scenario } from "./scenarios.ts";
import { send } from "./serve.ts";
import { benchRequest } from "./wire.ts";

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
 * contents, and that the cheap load check accepts it) before any load is counted.
 */
export async function validateAnswer(
  url: string,
  contender: Contender,
  scenario: Scenario,
): Promise<void> {
  let problem: string | undefined;
  try {
    const response = await send(url, benchRequest(scenario.request));
    const reply = await readReply(response, contender.mcp ? scenario.request.method : undefined);
    problem = contender.mcp ? mcpProblem(reply, scenario) : baselineProblem(reply);
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  if (problem) throw new Error(`${contender.label}, ${scenario.label}: ${problem}`);
}
