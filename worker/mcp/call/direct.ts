import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { Notify } from "../context/context.ts";
import type { MethodResult } from "../methods/method.ts";
import { logRequest } from "../observe/log.ts";
import { failure } from "../request/errors.ts";
import type { DirectReply } from "../request/in-process.ts";
import type { Outcome } from "../request/reply.ts";
import { ErrorCode } from "../../../shared/protocol/errors.ts";
import { RawResult } from "../results/ready.ts";
import { CallAbort } from "./abort.ts";
import { askingFor, methodCall, type Method } from "./call.ts";
import type { CallMeans, RoutedRequest } from "./calling.ts";

/**
 * The call stage for a call a proxy of this isolate hands over (`DirectCall`): the same handler
 * context, input and tasks as any call, but no reply stream. Its notifications go straight to
 * `notify`, and its result comes back as a 2026 client reads it from the response, with nothing
 * framed or parsed on the way. Cancelled by the call's signal alone (no other request knows its
 * id). Writes the request's log line.
 */
export async function callDirect(
  route: Method,
  request: RoutedRequest,
  means: CallMeans,
  notify: (message: JsonObject) => void,
): Promise<DirectReply> {
  const { era, info, catalog } = request;
  const abort = new CallAbort(request.client);
  const send: Notify = (message) => {
    notify(message);
    return true;
  };
  let reply: DirectReply;
  try {
    const pending = askingFor(route, request, means, send, abort);
    const asking = pending instanceof Promise ? await pending : pending;
    try {
      let result: MethodResult;
      try {
        result = await route.run(methodCall(request, means, asking, send, abort));
      } catch (error) {
        // A handler still missing answers ends this round, as in any call.
        if (!asking.inputRequired) throw error;
        result = await asking.inputRequired(error);
      }
      reply = {
        status: 200,
        result:
          result instanceof RawResult
            ? (JSON.parse(result.json) as JsonObject)
            : (era.resultMessage(result, info.id, catalog).result as JsonObject),
      };
    } finally {
      abort.release();
    }
  } catch (error) {
    reply = directFailure(failure(error, info.id, era, request.observation));
  }
  logRequest(means.log, request.observation, reply.status, reply.error);
  return reply;
}

/** A failure's outcome as the answer to a `DirectCall` (`failure` always gives the error). */
export function directFailure({ status, error }: Outcome): DirectReply {
  return { status, error: error ?? { code: ErrorCode.InternalError, message: "Internal error" } };
}
