import { Validator, type Schema } from "@cfworker/json-schema";

// The official schemas live beside the project (../shared/spec); a plain clone lacks them,
// and then these checks are skipped with a printed reason while every other assertion runs.
const files = import.meta.glob<Schema>("../../../shared/spec/schema-*.json", {
  eager: true,
  import: "default",
});
const SCHEMAS: Record<"2026" | "2025", Schema | undefined> = {
  "2026": files["../../../shared/spec/schema-2026-07-28.json"],
  "2025": files["../../../shared/spec/schema-2025-11-25.json"],
};

/** The official `$defs` of an era's schema (undefined in a clone without the schemas). */
export function officialDefs(era: "2026" | "2025"): Record<string, Schema> | undefined {
  const defs: unknown = SCHEMAS[era]?.$defs;
  return defs && typeof defs === "object" ? (defs as Record<string, Schema>) : undefined;
}

let warned = false;
/** Whether the official schemas are present; prints why not, once. */
export function haveSchemas(): boolean {
  const ok = SCHEMAS["2026"] !== undefined && SCHEMAS["2025"] !== undefined;
  if (!ok && !warned) {
    warned = true;
    console.warn(
      "Wire-schema checks skipped: ../shared/spec/schema-*.json not found beside the project.",
    );
  }
  return ok;
}

const RESULT_DEFS: Record<string, string> = {
  "server/discover": "DiscoverResult",
  initialize: "InitializeResult",
  ping: "EmptyResult",
  "logging/setLevel": "EmptyResult",
  "resources/subscribe": "EmptyResult",
  "resources/unsubscribe": "EmptyResult",
  "tools/list": "ListToolsResult",
  "tools/call": "CallToolResult",
  "resources/list": "ListResourcesResult",
  "resources/read": "ReadResourceResult",
  "resources/templates/list": "ListResourceTemplatesResult",
  "prompts/list": "ListPromptsResult",
  "prompts/get": "GetPromptResult",
  "completion/complete": "CompleteResult",
  "subscriptions/listen": "SubscriptionsListenResult",
};

// The 2026 schema types the standard errors as error objects and the MCP ones as whole responses.
const ERROR_DEFS_2026: Record<number, string> = {
  [-32700]: "error:ParseError",
  [-32600]: "error:InvalidRequestError",
  [-32601]: "error:MethodNotFoundError",
  [-32602]: "error:InvalidParamsError",
  [-32603]: "error:InternalError",
  [-32020]: "HeaderMismatchError",
  [-32021]: "MissingRequiredClientCapabilityError",
  [-32022]: "UnsupportedProtocolVersionError",
};

const validators = new Map<string, Validator>();
function validatorFor(era: "2026" | "2025", def: string): Validator {
  const key = `${era}#${def}`;
  let validator = validators.get(key);
  if (!validator) {
    const full = SCHEMAS[era];
    if (!full) throw new Error("schemas missing");
    validator = new Validator(
      { $ref: `#/$defs/${def}`, $defs: full.$defs } as Schema,
      "2020-12",
      false,
    );
    validators.set(key, validator);
  }
  return validator;
}

export type Era = "2026" | "2025";

/** The `$defs` names a server message must satisfy, given the request it answers. */
export function defsFor(message: Record<string, unknown>, method: string, era: Era): string[] {
  // notifications/tasks belongs to the tasks extension, outside the official schema files.
  if (message.method === "notifications/tasks") return ["JSONRPCNotification"];
  if ("method" in message) return ["ServerNotification", "JSONRPCNotification"];
  if ("error" in message) {
    const code = (message.error as { code?: number }).code;
    const specific = era === "2026" && code !== undefined ? ERROR_DEFS_2026[code] : undefined;
    return specific ? ["JSONRPCErrorResponse", specific] : ["JSONRPCErrorResponse"];
  }
  const result = message.result as Record<string, unknown> | undefined;
  // Task results belong to the tasks extension, whose schema is not among the official files.
  if (result?.resultType === "task") return ["JSONRPCResultResponse"];
  const def = result?.resultType === "input_required" ? "InputRequiredResult" : RESULT_DEFS[method];
  return def ? ["JSONRPCResultResponse", `result:${def}`] : ["JSONRPCResultResponse"];
}

/**
 * Asserts a message the server sent matches the official schema of its era. An error whose id
 * is null (one sent before the request's id was read) is checked without it: JSON-RPC 2.0
 * requires the null, which MCP's schema, leaving the member optional, does not spell out.
 */
export function assertWireValid(message: Record<string, unknown>, method: string, era: Era): void {
  if (!haveSchemas()) return;
  if ("error" in message && message.id === null) {
    const { id: _null, ...rest } = message;
    message = rest;
  }
  for (const def of defsFor(message, method, era)) {
    // "member:Def" checks one member of the message (its result or error) against Def.
    const colon = def.indexOf(":");
    const name = def.slice(colon + 1);
    const target = colon === -1 ? message : message[def.slice(0, colon)];
    const outcome = validatorFor(era, name).validate(target);
    if (!outcome.valid) {
      const errors = outcome.errors.slice(0, 5).map((e) => `${e.instanceLocation}: ${e.error}`);
      throw new Error(
        `Server message breaks the ${era} schema (${name}):\n${errors.join("\n")}\n${JSON.stringify(message).slice(0, 500)}`,
      );
    }
  }
}
