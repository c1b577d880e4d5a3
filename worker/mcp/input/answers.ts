import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { ClientCapabilities } from "../../../shared/protocol/capabilities.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import { missingCapabilities } from "./requirements.ts";
import { wireInputRequest, type InputRequest } from "./requests.ts";
import { InputRequiredSignal } from "./signal.ts";

/** The typed answers `ctx.input` resolves with, one per requested key. */
export type InputAnswers<T extends Record<string, InputRequest<unknown>>> = {
  [K in keyof T]: T[K] extends InputRequest<infer R> ? R : never;
};

/** -32021 for a request kind the client did not declare. */
export function undeclared(method: string, need: ClientCapabilities): RpcError {
  return new RpcError(
    ErrorCode.MissingRequiredClientCapability,
    `This request needs to send ${method}, which the client did not declare (requiredCapabilities ${JSON.stringify(need)}).`,
    { requiredCapabilities: need },
    400,
  );
}

/**
 * Answers input requests from the answers at hand: checks each kind against the declared
 * capabilities (-32021), parses each answer (-32602 when malformed), and throws
 * InputRequiredSignal for the ones still missing. `use` sees every answer consumed.
 */
export function answerInput<T extends Record<string, InputRequest<unknown>>>(
  requests: T,
  answers: Record<string, unknown>,
  capabilities: ClientCapabilities,
  use: (key: string, raw: unknown) => void = () => {},
): InputAnswers<T> {
  const out: Record<string, unknown> = {};
  const missing: Record<string, JsonObject> = {};
  for (const [key, request] of Object.entries(requests)) {
    if (!request.allowedBy(capabilities)) {
      throw undeclared(
        request.method,
        missingCapabilities(request.needs, capabilities) ?? request.needs,
      );
    }
    if (!(key in answers)) {
      missing[key] = wireInputRequest(request);
      continue;
    }
    const parsed = request.parse(answers[key]);
    if (!parsed.ok) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `inputResponses.${key} is not a valid answer to ${request.method}: ${parsed.reason}`,
      );
    }
    use(key, answers[key]);
    out[key] = parsed.value;
  }
  if (Object.keys(missing).length > 0) throw new InputRequiredSignal(missing);
  return out as InputAnswers<T>;
}
