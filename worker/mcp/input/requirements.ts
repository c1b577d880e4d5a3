import { TASKS_EXTENSION, type ClientCapabilities } from "../../../shared/protocol/capabilities.ts";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import { MetaKey } from "../../../shared/protocol/meta.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";

/** What a client declares to use tasks, in `requiredCapabilities` form. */
export const TASKS_REQUIRED: ClientCapabilities = { extensions: { [TASKS_EXTENSION]: {} } };

/**
 * The part of `required` that `declared` lacks, compared two levels deep
 * (e.g. `elicitation.url`, `extensions["io.modelcontextprotocol/tasks"]`).
 */
export function missingCapabilities(
  required: ClientCapabilities,
  declared: ClientCapabilities,
): ClientCapabilities | undefined {
  let missing: Record<string, unknown> | undefined;
  for (const [key, need] of Object.entries(required)) {
    const have: unknown = declared[key];
    let lacking: unknown = need;
    if (isJsonObject(have)) {
      if (!isJsonObject(need)) continue;
      const subs = Object.entries(need).filter(([sub]) => !isJsonObject(have[sub]));
      if (subs.length === 0) continue;
      lacking = Object.fromEntries(subs);
    }
    (missing ??= {})[key] = lacking;
  }
  return missing;
}

/** Throws -32021 when the request did not declare capabilities that `what` needs. */
export function requireCapabilities(
  required: ClientCapabilities,
  declared: ClientCapabilities,
  what: string,
): void {
  const missing = missingCapabilities(required, declared);
  if (!missing) return;
  throw new RpcError(
    ErrorCode.MissingRequiredClientCapability,
    `${what} needs client capabilities ${JSON.stringify(missing)}; declare them in _meta "${MetaKey.clientCapabilities}".`,
    { requiredCapabilities: missing },
    400,
  );
}
