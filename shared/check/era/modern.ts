import { isJsonObject } from "../../jsonrpc.ts";
import type { JsonObject } from "../../protocol/messages.ts";
import { MetaKey } from "../../protocol/meta.ts";
import { error, schemaFindings, warning, type Finding } from "../finding.ts";
import { headerOf } from "../headers.ts";
import type { ResultRule } from "../result-schemas.ts";
import { INPUT_REQUIRED_SCHEMA, TASK_SCHEMA } from "../result-schemas.ts";
import type { MessageRules, ServerRules } from "./era.ts";
import { listenFindings } from "./listen.ts";
import { modernRequestFindings } from "./modern-request.ts";

const RESULT_TYPES = ["complete", "input_required", "task"];
// Codes the 2026 revision retired or reserves; a modern server must not send them.
const RETIRED_CODES = [-32002, -32042];
// Errors whose HTTP status the 2026 revision fixes.
const ERROR_STATUS: Readonly<Record<number, number>> = {
  [-32020]: 400,
  [-32021]: 400,
  [-32022]: 400,
  [-32601]: 404,
};

/** A 2026 result: its resultType, that type's shape, and a complete result's cache hints. */
function resultFindings(result: JsonObject, rule: ResultRule, method: string): Finding[] {
  const type = result.resultType;
  if (type === undefined)
    return [error("result.result-type", "A 2026 result must carry resultType.")];
  if (typeof type !== "string" || !RESULT_TYPES.includes(type))
    return [error("result.result-type", `Unknown resultType ${JSON.stringify(type)}.`)];
  if (type === "input_required") {
    if (!rule.inputRounds)
      return [error("result.input-required", `${method} may not answer input_required.`)];
    return schemaFindings(INPUT_REQUIRED_SCHEMA, result, "result.shape", "input_required result");
  }
  if (type === "task") {
    if (!rule.tasks) return [error("result.task", `${method} may not answer with a task.`)];
    return schemaFindings(TASK_SCHEMA, result, "result.shape", "task result");
  }
  const findings = schemaFindings(rule.schema, result, "result.shape", "result");
  if (rule.cacheable)
    for (const key of ["ttlMs", "cacheScope"])
      if (!(key in result))
        findings.push(error("result.cache-hint", `A complete ${method} result must carry ${key}.`));
  const meta = isJsonObject(result._meta) ? result._meta : {};
  if (method === "server/discover" && !isJsonObject(meta[MetaKey.serverInfo]))
    findings.push(
      warning(
        "result.server-info",
        "The discover result should name the server in _meta serverInfo.",
      ),
    );
  return findings;
}

/** A 2026 error: no retired or reserved code, and the HTTP status the revision fixes for it. */
function errorCodeFindings(code: number, status: number | undefined): Finding[] {
  const findings: Finding[] = [];
  if (RETIRED_CODES.includes(code))
    findings.push(error("error.code", `Error code ${code} is retired in 2026-07-28.`));
  else if (code <= -32023 && code >= -32099)
    findings.push(error("error.code", `Error code ${code} is reserved for the specification.`));
  const expected = ERROR_STATUS[code];
  if (expected !== undefined && status !== undefined && status !== expected)
    findings.push(
      warning("error.status", `Error ${code} should come with HTTP ${expected}, not ${status}.`),
    );
  return findings;
}

/**
 * The 2026-07-28 era: requests carry `_meta` and the headers that mirror it; servers never mint
 * sessions nor send requests; results state their type; listen streams carry listen
 * notifications. A server that answers `server/discover` takes every 2026 check.
 */
export const modern: MessageRules & ServerRules = {
  name: "modern",
  request: modernRequestFindings,
  replyHeaders(headers) {
    return headerOf(headers, "Mcp-Session-Id") === undefined
      ? []
      : [error("http.session", "2026 servers never mint Mcp-Session-Id.")];
  },
  result: resultFindings,
  errorCode: errorCodeFindings,
  streamNotification: listenFindings,
  otherNotification(method, stream) {
    return [warning("notification.unexpected", `${method} is not expected on a ${stream} stream.`)];
  },
  serverRequest(method) {
    return [error("message.server-request", `2026 servers never send requests (got ${method}).`)];
  },
  missingMembers(result) {
    const missing: Array<"resultType" | "serverInfo"> = [];
    if (typeof result.resultType !== "string") missing.push("resultType");
    const meta = result._meta;
    if (!isJsonObject(meta) || !isJsonObject(meta[MetaKey.serverInfo])) missing.push("serverInfo");
    return missing;
  },
  no2026: undefined,
  discoverRefused(got) {
    return { status: "fail", detail: got };
  },
  // A 2026 server need not serve 2025 clients.
  handshakeRefused(got) {
    return { status: "skip", detail: `a 2026-only server (${got})` };
  },
  corsReply(probe, origin) {
    return probe.modern("server/discover", {}, { headers: { Origin: origin } });
  },
};
