import { isJsonObject } from "../jsonrpc.ts";
import type { JsonObject, JsonRpcId } from "../protocol/messages.ts";
import { JsonRpcErrorObjectSchema } from "../protocol/messages.ts";
import { LogMessageParamsSchema, ProgressParamsSchema } from "../protocol/notifications.ts";
import type { Era } from "../protocol/versions.ts";
import type { MessageRules } from "./era/era.ts";
import { MESSAGE_RULES } from "./era/index.ts";
import { error, schemaFindings, type Finding } from "./finding.ts";
import { RESULT_RULES } from "./result-schemas.ts";

/** The request a server message answers or belongs to. */
export type MessageContext = {
  /** The request's method (`subscriptions/listen` for a listen stream). */
  method: string;
  /** The request's id; absent for a notification POST. */
  requestId?: JsonRpcId;
  era: Era;
  /** The HTTP status the message came with. */
  status?: number;
};

function errorFindings(value: unknown, context: MessageContext, era: MessageRules): Finding[] {
  const findings = schemaFindings(JsonRpcErrorObjectSchema, value, "error.shape", "error");
  if (findings.length > 0 || !isJsonObject(value) || typeof value.code !== "number")
    return findings;
  return era.errorCode(value.code, context.status);
}

function notificationFindings(
  method: string,
  message: JsonObject,
  context: MessageContext,
  era: MessageRules,
): Finding[] {
  const own = era.streamNotification(method, message, context.method);
  if (own) return own;
  const params = isJsonObject(message.params) ? message.params : undefined;
  if (method === "notifications/progress")
    return schemaFindings(ProgressParamsSchema, params, "notification.shape", method);
  if (method === "notifications/message")
    return schemaFindings(LogMessageParamsSchema, params, "notification.shape", method);
  return era.otherNotification(method, context.method);
}

/**
 * Checks one message a server sent in reply to a request (a JSON body, or one SSE event) against
 * `shared/protocol`'s schemas and the rules of the request's era on results, errors, server
 * requests and notifications.
 */
export function checkServerMessage(message: unknown, context: MessageContext): Finding[] {
  if (!isJsonObject(message) || message.jsonrpc !== "2.0")
    return [error("message.envelope", "The message is not a JSON-RPC 2.0 object.")];
  const era = MESSAGE_RULES[context.era];
  const isAnswer = "result" in message || "error" in message;
  if (isAnswer) {
    const id = message.id;
    const ours = context.requestId !== undefined && id === context.requestId;
    const idless = "error" in message && (id === undefined || id === null);
    if (!ours && !idless)
      return [
        error("message.id", `The response id ${JSON.stringify(id)} answers no request sent here.`),
      ];
    if ("error" in message) return errorFindings(message.error, context, era);
    if (!isJsonObject(message.result)) return [error("result.shape", "result must be an object.")];
    const rule = RESULT_RULES[context.method];
    return rule ? era.result(message.result, rule, context.method) : [];
  }
  if (typeof message.method !== "string")
    return [error("message.envelope", "The message is neither a response nor has a method.")];
  return "id" in message
    ? era.serverRequest(message.method, message)
    : notificationFindings(message.method, message, context, era);
}
