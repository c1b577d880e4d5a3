import { issuesLine } from "../zod-issues.ts";
import * as z from "zod/mini";
import { ServerMessageSchema } from "../protocol/messages.ts";
import type { CheckContext } from "./context.ts";
import { MESSAGE_RULES } from "./era/index.ts";
import { firstProblems } from "./expect.ts";
import type { Received } from "./probe.ts";
import { INPUT_REQUIRED_SCHEMA, NOTIFICATION_SCHEMAS, RESULT_SCHEMAS } from "./result-schemas.ts";

// -32023..-32099 are reserved for the specification; servers must not send them.
function reserved(code: number): boolean {
  return code <= -32023 && code >= -32099;
}

type Findings = {
  envelope: string[];
  shape: string[];
  resultType: string[];
  serverInfo: string[];
  codes: string[];
};

function inspect(received: Received, found: Findings): void {
  const { method, era, message } = received;
  const envelope = ServerMessageSchema.safeParse(message);
  if (!envelope.success) {
    found.envelope.push(`${method}: ${issuesLine(envelope.error, message)}`);
    return;
  }
  const data = envelope.data;
  if ("error" in data) {
    if (reserved(data.error.code)) found.codes.push(`${method}: ${data.error.code}`);
    return;
  }
  if ("method" in data) {
    const schema = NOTIFICATION_SCHEMAS[data.method];
    const parsed = schema && z.safeParse(schema, data.params);
    if (parsed && !parsed.success)
      found.shape.push(`${data.method}: ${issuesLine(parsed.error, data.params)}`);
    return;
  }
  const result = data.result;
  for (const member of MESSAGE_RULES[era].missingMembers(result)) found[member].push(method);
  const schema =
    result.resultType === "input_required" ? INPUT_REQUIRED_SCHEMA : RESULT_SCHEMAS[method];
  const parsed = schema && z.safeParse(schema, result);
  if (parsed && !parsed.success) found.shape.push(`${method}: ${issuesLine(parsed.error, result)}`);
}

/** Every message the server sent during the other checks, against shared/protocol's schemas. */
export function messageChecks(ctx: CheckContext): void {
  const found: Findings = { envelope: [], shape: [], resultType: [], serverInfo: [], codes: [] };
  for (const received of ctx.probe.received) inspect(received, found);
  const count = ctx.probe.received.length;
  const unique = (items: string[]) => [...new Set(items)];
  ctx.expect(
    "messages",
    "messages.envelope",
    `Every message is JSON-RPC 2.0 (${count} seen)`,
    firstProblems(found.envelope),
  );
  ctx.expect(
    "messages",
    "messages.shapes",
    "Every result and notification has its method's shape",
    firstProblems(found.shape),
  );
  ctx.expect(
    "messages",
    "messages.result-type",
    "Every 2026 result states its resultType",
    firstProblems(unique(found.resultType)),
  );
  ctx.expect(
    "messages",
    "messages.server-info",
    "Every 2026 result names the server in _meta serverInfo",
    firstProblems(unique(found.serverInfo)),
    "warn",
  );
  ctx.expect(
    "messages",
    "messages.error-codes",
    "No error uses a code the specification reserves",
    firstProblems(found.codes),
  );
}
