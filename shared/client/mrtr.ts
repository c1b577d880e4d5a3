import type { JsonObject } from "../protocol/messages.ts";
import { InputRequiredResultSchema } from "../protocol/input-requests.ts";
import { McpError } from "./errors.ts";
import { answerInputRequests } from "./fulfil.ts";
import type { InputHandlers } from "./options.ts";
import { parseResult, resultTypeOf } from "./parse.ts";
import { sleep } from "./sleep.ts";
import type { ErrorContext } from "./transport.ts";

/** What a retry adds to the original params: the answers and the echoed state. */
export type InputRound = { inputResponses?: Record<string, JsonObject>; requestState?: string };

/** Who answers input requests, how many rounds are allowed, and where errors belong. */
export type InputRoundsOptions = {
  handlers: InputHandlers;
  maxRounds: number;
  signal: AbortSignal | undefined;
  context: ErrorContext;
};

// A state-only round asks nothing; a short pause keeps such a server from being hammered.
const STATE_ONLY_PAUSE_MS = 250;

/**
 * Sends a request and, while the server answers `input_required`, fulfils every input request
 * through the handlers and sends the request again (a new id, the same params, plus
 * `inputResponses` and the `requestState` echoed exactly), at most `maxRounds` times.
 */
export async function runInputRounds(
  send: (round: InputRound) => Promise<JsonObject>,
  options: InputRoundsOptions,
): Promise<{ result: JsonObject; rounds: number }> {
  const { context } = options;
  let round: InputRound = {};
  for (let rounds = 0; ; rounds++) {
    const result = await send(round);
    if (resultTypeOf(result) !== "input_required") return { result, rounds };
    if (rounds >= options.maxRounds) {
      throw new McpError(
        `The server still asks for input after ${options.maxRounds} rounds of ${context.method}.`,
        { kind: "client", data: { maxRounds: options.maxRounds }, ...context },
      );
    }
    const { inputRequests, requestState } = parseResult(InputRequiredResultSchema, result, context);
    const asks = inputRequests && Object.keys(inputRequests).length > 0 ? inputRequests : undefined;
    if (!asks && requestState === undefined) {
      throw new McpError(`An input_required result of ${context.method} asks for nothing.`, {
        kind: "protocol",
        data: { result },
        ...context,
      });
    }
    if (!asks) await sleep(STATE_ONLY_PAUSE_MS, options.signal, context);
    const inputResponses = asks
      ? await answerInputRequests(options.handlers, asks, options.signal, context.era)
      : undefined;
    round = {
      ...(inputResponses ? { inputResponses } : {}),
      ...(requestState === undefined ? {} : { requestState }),
    };
  }
}
