import { InputRequestSchema } from "../../protocol/input-requests.ts";
import { LegacyCreateTaskResultSchema } from "../../protocol/legacy-tasks.ts";
import { schemaFindings, warning } from "../finding.ts";
import type { MessageRules, ServerRules } from "./era.ts";
import { INITIALIZE_PARAMS } from "./handshake.ts";

const SERVER_REQUESTS = ["elicitation/create", "sampling/createMessage", "roots/list", "ping"];

/**
 * The 2025 era, after `initialize`: requests carry no required `_meta`; results have only their
 * method's shape; a server may send the requests 2025 clients answer, and any notification.
 * A server that speaks only 2025 skips the 2026 checks.
 */
export const legacy: MessageRules & ServerRules = {
  name: "legacy",
  request() {
    return [];
  },
  replyHeaders() {
    return [];
  },
  result(result, rule) {
    // A call sent with the `task` param is answered at once with the task it started.
    if (rule.tasks && "task" in result)
      return schemaFindings(LegacyCreateTaskResultSchema, result, "result.shape", "task result");
    return schemaFindings(rule.schema, result, "result.shape", "result");
  },
  errorCode() {
    return [];
  },
  streamNotification() {
    return undefined;
  },
  otherNotification() {
    return [];
  },
  serverRequest(method, message) {
    if (!SERVER_REQUESTS.includes(method))
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
  },
  missingMembers() {
    return [];
  },
  no2026: "the server does not speak 2026-07-28",
  discoverRefused(got) {
    return {
      status: "warn",
      detail: `no 2026-07-28 reply (${got}): the 2026 checks are skipped`,
    };
  },
  handshakeRefused(got) {
    return { status: "fail", detail: `neither server/discover nor initialize works: ${got}` };
  },
  corsReply(probe, origin) {
    return probe.legacy("initialize", INITIALIZE_PARAMS, { Origin: origin });
  },
};
