import type { JsonObject } from "../protocol/messages.ts";
import type { InputRequest, InputRequests } from "../protocol/input-requests.ts";
import { McpError } from "./errors.ts";
import type { Era } from "../protocol/versions.ts";
import type { InputContext, InputHandlers } from "./options.ts";

function missing(kind: string, key: string, era: Era): McpError {
  return new McpError(
    `The server asked for ${kind} (input "${key}") but the client has no ${kind} handler.`,
    { kind: "client", era, data: { key } },
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
