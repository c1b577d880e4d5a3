import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { Asking } from "./context.ts";

/** `ctx.input` in the handlers of methods that cannot ask the client for input, by method. */
const REFUSED = new Map<string, Asking>();

/** `ctx.input` in the handler of a method that cannot ask the client for input. */
export function refused(method: string): Asking {
  let asking = REFUSED.get(method);
  if (!asking) {
    asking = refuseAsking(
      `Asking the client for input is not available in ${method} handlers (only tools/call, prompts/get and resources/read).`,
    );
    // Routed methods only reach here, so the table stays as small as the method tables.
    REFUSED.set(method, asking);
  }
  return asking;
}

/** `ctx.input` and `ctx.relay` in a handler that cannot ask the client for input, and why. */
export function refuseAsking(reason: string): Asking {
  const refuse = () => Promise.reject(new RpcError(ErrorCode.InternalError, reason));
  return { input: refuse, relay: { state: undefined, responses: {}, ask: refuse } };
}

/**
 * `ctx.input` and `ctx.relay` on a server that did not link input rounds. A handler that asks
 * there is a bug of the server's, not the client's: a plain error, logged with its message, and
 * answered as any handler's failure is (without details, with the correlation id).
 */
export const NO_INPUT_ROUNDS: Asking = {
  input: noInputRounds,
  relay: { state: undefined, responses: {}, ask: noInputRounds },
};

function noInputRounds(): Promise<never> {
  return Promise.reject(
    new Error(
      'ctx.input and ctx.relay need input rounds, which this server did not link: import { inputRounds } from "edgemcp/server" and add `input: inputRounds` to its defineServer({ ... }).',
    ),
  );
}
