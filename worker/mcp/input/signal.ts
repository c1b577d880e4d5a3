import type { JsonObject } from "../../../shared/protocol/messages.ts";

/**
 * Raised inside a handler when answers are missing; the runtime turns it into
 * `input_required` with these requests (wire form) and `state` sealed into requestState. Its
 * own file: the tool runner lets it through without linking how input is asked for.
 */
export class InputRequiredSignal extends Error {
  override readonly name = "InputRequiredSignal";
  constructor(
    readonly requests: Record<string, JsonObject>,
    readonly state?: unknown,
  ) {
    super("The handler needs input from the client.");
  }
}
