import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { Era } from "../../../shared/protocol/versions.ts";
import type { Asking, Cancel, Notify, RequestInfo } from "../context/context.ts";
import type { Sealing, Seals } from "../context/handles.ts";
import type { Coordination } from "../ports.ts";

/** What a request gives input rounds to let its handler ask the client for input. */
export type AskingSetup = {
  method: string;
  params: JsonObject;
  info: RequestInfo;
  handles: Seals;
  /** The request's reply, for requests sent on its stream. */
  send: Notify;
  /** The call's cancellation (its signal is made when first read). */
  cancel: Cancel;
  coordination: Coordination;
};

/** How a handler of one request asks for input, and what ends a round that is still missing answers. */
export type EraAsking = Asking & {
  /**
   * The result that ends this round (2026 MRTR: `input_required`) when the handler failed with
   * an `InputRequiredSignal`; any other failure is thrown again. Absent where asking waits.
   */
  inputRequired?(failure: unknown): Promise<JsonObject>;
};

/**
 * Asking clients for input (`ctx.input`, `ctx.relay`): 2026 MRTR rounds and 2025
 * server-to-client requests. A server links it by naming it in its definition
 * (`defineServer({ ..., input: inputRounds })`, `inputRounds` from `edgemcp/server`); without
 * it a handler's `ctx.input` rejects, naming that import.
 */
export interface InputRounds {
  /** How a 2026 round's requestState is sealed: input rounds bring sealing with them. */
  readonly sealing: Sealing;
  /**
   * `ctx.input` and `ctx.relay` for one request of a method that may ask, in its era. A request
   * that answers an earlier round (`answers`) is opened, and checked, now; any other only when
   * its handler first asks.
   */
  asking(era: Era, setup: AskingSetup, answers: boolean): Promise<EraAsking>;
}
