import type { ClientCapabilities } from "../protocol/capabilities.ts";
import { McpError } from "./errors.ts";
import type { InputHandlers } from "./options.ts";

// Each input capability and the handler serving it share their name.
const INPUTS = ["elicitation", "sampling", "roots"] as const satisfies ReadonlyArray<
  keyof ClientCapabilities & keyof InputHandlers
>;

/**
 * The capabilities to declare: derived from the handlers when none are given, else the given
 * ones, which must pair every input capability with its handler and the other way round.
 */
export function resolveCapabilities(
  declared: ClientCapabilities | undefined,
  handlers: InputHandlers,
): ClientCapabilities {
  if (!declared) {
    return Object.fromEntries(INPUTS.filter((name) => handlers[name]).map((name) => [name, {}]));
  }
  for (const name of INPUTS) {
    const has = declared[name] !== undefined;
    const handles = handlers[name] !== undefined;
    if (has === handles) continue;
    throw new McpError(
      has
        ? `The client declares the ${name} capability but registers no ${name} handler.`
        : `The client registers a ${name} handler but does not declare the ${name} capability.`,
      { kind: "client", data: { capability: name } },
    );
  }
  return declared;
}
