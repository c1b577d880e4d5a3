import {
  InputRequiredResultSchema,
  type InputRequest,
  type InputRequests,
} from "../protocol/input-requests.ts";
import type { JsonObject } from "../protocol/messages.ts";
import type { Era } from "../protocol/versions.ts";
import { sleep } from "../sleep.ts";
import { abortError, McpError, type ErrorContext } from "./errors.ts";
import type { InputContext, InputHandlers } from "./options.ts";
import { parseResult, resultTypeOf } from "./parse.ts";

function missing(kind: string, key: string, era: Era): McpError {
  return new McpError(
    `The server asked for ${kind} (input "${key}") but the client has no ${kind} handler.`,
    { kind: "client", era, data: { key, capability: kind } },
  );
}

/** Answers one input request with the registered handler for its kind. */
export async function answerInputRequest(
  handlers: InputHandlers,
  request: InputRequest,
  context: InputContext,
  era: Era,
): Promise<JsonObject> {
  switch (request.method) {
    case "elicitation/create":
      if (!handlers.elicitation) throw missing("elicitation", context.key, era);
      return handlers.elicitation(request.params, context);
    case "sampling/createMessage":
      if (!handlers.sampling) throw missing("sampling", context.key, era);
      return handlers.sampling(request.params, context);
    case "roots/list":
      if (!handlers.roots) throw missing("roots", context.key, era);
      return handlers.roots(context);
  }
}

/** Answers every request of one round (concurrently), keyed like the requests. */
export async function answerInputRequests(
  handlers: InputHandlers,
  requests: InputRequests,
  signal: AbortSignal | undefined,
  era: Era,
): Promise<Record<string, JsonObject>> {
  const answers = await Promise.all(
    Object.entries(requests).map(
      async ([key, request]) =>
        [key, await answerInputRequest(handlers, request, { key, signal }, era)] as const,
    ),
  );
  return Object.fromEntries(answers);
}

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
    if (!asks) await pause(STATE_ONLY_PAUSE_MS, options.signal, context);
    const inputResponses = asks
      ? await answerInputRequests(options.handlers, asks, options.signal, context.era)
      : undefined;
    round = {
      ...(inputResponses ? { inputResponses } : {}),
      ...(requestState === undefined ? {} : { requestState }),
    };
  }
}

/** Waits `ms`, or fails as aborted as soon as `signal` fires (the only way the wait can fail). */
export async function pause(
  ms: number,
  signal: AbortSignal | undefined,
  context: ErrorContext,
): Promise<void> {
  await sleep(ms, signal).catch((reason: unknown) => {
    throw signal ? abortError(signal, context) : reason;
  });
}
