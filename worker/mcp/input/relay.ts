import type { JsonObject } from "../../../shared/protocol/messages.ts";

/**
 * Input passed through rather than asked for (`ctx.relay`): for servers that front another
 * server, like the hub, whose input requests arrive already serialized.
 */
export type InputRelay = {
  /** What `ask` stored in the previous round; undefined in the first round. */
  readonly state: unknown;
  /** The client's answers to the previous round's requests, as sent. */
  readonly responses: Readonly<Record<string, unknown>>;
  /**
   * Asks the client these requests (wire form). Over 2026-07-28 this ends the round with
   * `input_required`, carrying `state` sealed in requestState, and the handler runs again with
   * `state` and `responses` set; 2025 clients get the requests on the stream, and `ask`
   * resolves with their raw answers.
   */
  ask(requests: Record<string, JsonObject>, state: unknown): Promise<Record<string, unknown>>;
};
