import { isJsonObject } from "../jsonrpc.ts";
import type { JsonObject, JsonRpcId } from "../protocol/messages.ts";
import { InputRequestSchema } from "../protocol/input-requests.ts";
import { JsonRpcErrorObjectSchema } from "../protocol/messages.ts";
import { MetaKey } from "../protocol/meta.ts";
import {
  ListenNotificationSchema,
  LogMessageParamsSchema,
  ProgressParamsSchema,
  SubscriptionAcknowledgedSchema,
} from "../protocol/notifications.ts";
import { error, schemaFindings, warning, type Finding } from "./finding.ts";
import { INPUT_REQUIRED_SCHEMA, RESULT_RULES, TASK_SCHEMA } from "./result-schemas.ts";

/** The request a server message answers or belongs to. */
export type MessageContext = {
  /** The request's method (`subscriptions/listen` for a listen stream). */
  method: string;
  /** The request's id; absent for a notification POST. */
  requestId?: JsonRpcId;
  era: "modern" | "legacy";
  /** The HTTP status the message came with. */
  status?: number;
};

const RESULT_TYPES = ["complete", "input_required", "task"];
const LEGACY_SERVER_REQUESTS = [
  "elicitation/create",
  "sampling/createMessage",
  "roots/list",
  "ping",
];
const LISTEN = "subscriptions/listen";
// Codes the 2026 revision retired or reserves; a modern server must not send them.
const RETIRED_CODES = [-32002, -32042];
// Errors whose HTTP status the 2026 revision fixes.
const ERROR_STATUS: Readonly<Record<number, number>> = {
  [-32020]: 400,
  [-32021]: 400,
  [-32022]: 400,
  [-32601]: 404,
};

function resultFindings(result: JsonObject, context: MessageContext): Finding[] {
  const rule = RESULT_RULES[context.method];
  if (!rule) return [];
  const type = result.resultType;
  if (context.era === "legacy")
    return schemaFindings(rule.schema, result, "result.shape", "result");
  if (type === undefined)
    return [error("result.result-type", "A 2026 result must carry resultType.")];
  if (typeof type !== "string" || !RESULT_TYPES.includes(type))
    return [error("result.result-type", `Unknown resultType ${JSON.stringify(type)}.`)];
  if (type === "input_required") {
    if (!rule.inputRounds)
      return [error("result.input-required", `${context.method} may not answer input_required.`)];
    return schemaFindings(INPUT_REQUIRED_SCHEMA, result, "result.shape", "input_required result");
  }
  if (type === "task") {
    if (!rule.tasks) return [error("result.task", `${context.method} may not answer with a task.`)];
    return schemaFindings(TASK_SCHEMA, result, "result.shape", "task result");
  }
  const findings = schemaFindings(rule.schema, result, "result.shape", "result");
  if (rule.cacheable)
    for (const key of ["ttlMs", "cacheScope"])
      if (!(key in result))
        findings.push(
          error("result.cache-hint", `A complete ${context.method} result must carry ${key}.`),
        );
  const meta = isJsonObject(result._meta) ? result._meta : {};
  if (context.method === "server/discover" && !isJsonObject(meta[MetaKey.serverInfo]))
    findings.push(
      warning(
        "result.server-info",
        "The discover result should name the server in _meta serverInfo.",
      ),
    );
  return findings;
}

function errorFindings(value: unknown, context: MessageContext): Finding[] {
  const findings = schemaFindings(JsonRpcErrorObjectSchema, value, "error.shape", "error");
  if (findings.length > 0 || !isJsonObject(value) || typeof value.code !== "number")
    return findings;
  const { code } = value;
  if (context.era === "modern") {
    if (RETIRED_CODES.includes(code))
      findings.push(error("error.code", `Error code ${code} is retired in 2026-07-28.`));
    else if (code <= -32023 && code >= -32099)
      findings.push(error("error.code", `Error code ${code} is reserved for the specification.`));
    const status = ERROR_STATUS[code];
    if (status !== undefined && context.status !== undefined && context.status !== status)
      findings.push(
        warning(
          "error.status",
          `Error ${code} should come with HTTP ${status}, not ${context.status}.`,
        ),
      );
  }
  return findings;
}

function notificationFindings(
  method: string,
  message: JsonObject,
  context: MessageContext,
): Finding[] {
  const params = isJsonObject(message.params) ? message.params : undefined;
  if (context.method === LISTEN && context.era === "modern") {
    const named = isJsonObject(params?._meta) ? params._meta[MetaKey.subscriptionId] : undefined;
    const missing =
      named === undefined
        ? [
            error(
              "listen.subscription-id",
              `${method} on a listen stream must carry _meta subscriptionId.`,
            ),
          ]
        : [];
    if (method === "notifications/subscriptions/acknowledged")
      return [
        ...missing,
        ...schemaFindings(SubscriptionAcknowledgedSchema, message, "notification.shape", method),
      ];
    if (method === "notifications/progress" || method === "notifications/message")
      return [error("listen.foreign", `${method} is never sent on a listen stream.`)];
    if (method === "notifications/cancelled") return missing;
    return [
      ...missing,
      ...schemaFindings(ListenNotificationSchema, message, "notification.shape", method),
    ];
  }
  if (method === "notifications/progress")
    return schemaFindings(ProgressParamsSchema, params, "notification.shape", method);
  if (method === "notifications/message")
    return schemaFindings(LogMessageParamsSchema, params, "notification.shape", method);
  if (context.era === "legacy") return [];
  return [
    warning("notification.unexpected", `${method} is not expected on a ${context.method} stream.`),
  ];
}

function requestFindings(method: string, message: JsonObject, context: MessageContext): Finding[] {
  if (context.era === "modern")
    return [error("message.server-request", `2026 servers never send requests (got ${method}).`)];
  if (!LEGACY_SERVER_REQUESTS.includes(method))
    return [
      warning("message.server-request", `${method} is not a request 2025 servers send clients.`),
    ];
  if (method === "ping") return [];
  return schemaFindings(
    InputRequestSchema,
    { method, params: message.params },
    "request.shape",
    method,
  );
}

/**
 * Checks one message a server sent in reply to a request (a JSON body, or one SSE event) against
 * `shared/protocol`'s schemas and the 2026-07-28 rules on results, errors and listen streams.
 */
export function checkServerMessage(message: unknown, context: MessageContext): Finding[] {
  if (!isJsonObject(message) || message.jsonrpc !== "2.0")
    return [error("message.envelope", "The message is not a JSON-RPC 2.0 object.")];
  const isAnswer = "result" in message || "error" in message;
  if (isAnswer) {
    const id = message.id;
    const ours = context.requestId !== undefined && id === context.requestId;
    const idless = "error" in message && (id === undefined || id === null);
    if (!ours && !idless)
      return [
        error("message.id", `The response id ${JSON.stringify(id)} answers no request sent here.`),
      ];
    if ("error" in message) return errorFindings(message.error, context);
    if (!isJsonObject(message.result)) return [error("result.shape", "result must be an object.")];
    return resultFindings(message.result, context);
  }
  if (typeof message.method !== "string")
    return [error("message.envelope", "The message is neither a response nor has a method.")];
  return "id" in message
    ? requestFindings(message.method, message, context)
    : notificationFindings(message.method, message, context);
}
