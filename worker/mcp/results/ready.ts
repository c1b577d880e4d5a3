import type { JsonObject } from "../../../shared/protocol/messages.ts";

const encoder = new TextEncoder();

/**
 * A result already serialized for its era, spliced into the response without re-encoding.
 * `kept`: the same result is served request after request (a list page built once), so its
 * UTF-8 bytes are kept too, and a whole JSON reply is spliced from them: a copy of bytes
 * instead of encoding the text again for every response.
 */
export class RawResult {
  #bytes: Uint8Array | undefined;

  constructor(
    readonly json: string,
    readonly kept = false,
  ) {}

  /** The result's UTF-8 bytes, encoded once, when it is kept; undefined otherwise. */
  get bytes(): Uint8Array | undefined {
    if (!this.kept) return undefined;
    return (this.#bytes ??= encoder.encode(this.json));
  }
}

/**
 * A result produced by another server (the hub forwarding a call), sent on as it is: only the
 * shape 2025 clients require is adjusted. It may also be a task (`resultType: "task"`).
 */
export class ForwardedResult {
  constructor(readonly json: Record<string, unknown>) {}
}

/**
 * How a JSON reply copies in the content blocks serialized once (`serializedText`): the
 * response's UTF-8 bytes from its result and the era's serializer, undefined when the result
 * holds no such block. Set by the first such block made, so a Worker that makes none links none
 * of it.
 */
export const serializedBlocks: {
  splice?: (
    result: JsonObject,
    serialize: (result: JsonObject) => string,
  ) => Uint8Array | undefined;
} = {};
