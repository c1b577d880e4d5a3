import type { ClientCapabilities } from "../protocol/capabilities.ts";
import { McpError } from "./errors.ts";
import type { InputHandlers } from "./options.ts";

const PAIRS = [
  ["elicitation", "elicitation"],
  ["sampling", "sampling"],
  ["roots", "roots"],
] as const satisfies ReadonlyArray<readonly [keyof ClientCapabilities, keyof InputHandlers]>;

/**
 * The capabilities to declare: derived from the handlers when none are given, else the given
 * ones, which must pair every input capability with its handler and the other way round.
 */
export function resolveCapabilities(
  declared: ClientCapabilities | undefined,
  handlers: InputHandlers,
): ClientCapabilities {
  if (!declared) {
    return Object.fromEntries(
      PAIRS.filter(([, handler]) => handlers[handler]).map(([capability]) => [capability, {}]),
    );
  }
  for (const [capability, handler] of PAIRS) {
    const has = declared[capability] !== undefined;
    const handles = handlers[handler] !== undefined;
    if (has === handles) continue;
    throw new McpError(
      has
        ? `The client declares the ${capability} capability but registers no ${handler} handler.`
        : `The client registers a ${handler} handler but does not declare the ${capability} capability.`,
      { kind: "client", data: { capability } },
    );
  }
  return declared;
}

/** The capabilities as a 2025 `initialize` states them (extensions did not exist yet). */
export function legacyCapabilities(capabilities: ClientCapabilities): ClientCapabilities {
  const { extensions: _extensions, ...rest } = capabilities;
  return rest;
}
