import * as z from "zod/mini";
import { isJsonObject } from "../../../../shared/jsonrpc.ts";
import type { ClientCapabilities } from "../../../../shared/protocol/capabilities.ts";
import { ErrorCode, RpcError } from "../../../../shared/protocol/errors.ts";
import type { JsonObject } from "../../../../shared/protocol/messages.ts";
import type { Asking } from "../../context/context.ts";
import type { Seals } from "../../context/handles.ts";
import type { Rounds } from "../../ports.ts";
import type { AskingSetup, EraAsking } from "../../define/input.ts";
import { answerInput, undeclared, type InputAnswers } from "../../input/answers.ts";
import { InputRequiredSignal } from "../../input/signal.ts";
import { wireRequestNeeds, type InputRequest } from "../../input/requests.ts";
import { paramsDigest } from "./digest.ts";

const STATE_PURPOSE = "requestState";
/** How long a requestState may come back: ten minutes (a literal, so unused it links nothing). */
const STATE_TTL_MS = 600_000;
/**
 * m: method, h: params digest, a: answers so far, k: keys asked last round, s: relay state,
 * n: the round's nonce (claimed once where coordination can, so a round cannot be replayed).
 */
const StateSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    n: z.optional(z.string()),
    m: z.string(),
    h: z.string(),
    a: z.record(z.string(), z.unknown()),
    k: z.array(z.string()),
    s: z.optional(z.unknown()),
  }),
);

/**
 * Multi-round-trip input (MRTR) for one 2026-07-28 request. Answers come from `inputResponses`
 * and, from earlier rounds, from the sealed `requestState`, which binds the method, a digest of
 * the params, the caller and an expiry, so it cannot be forged, replayed elsewhere or reused late.
 */
class InputSession {
  readonly #consumed: Record<string, unknown> = {};

  private constructor(
    private readonly method: string,
    private readonly params: JsonObject,
    /** The params digest, computed only when a requestState is checked or issued. */
    private digest: string | undefined,
    private readonly answers: Record<string, unknown>,
    private readonly capabilities: ClientCapabilities,
    private readonly handles: Seals,
    /** What the relay stored last round, and this round's answers to what it asked. */
    private readonly relayed: { state: unknown; responses: Record<string, unknown> },
  ) {}

  /** Refuses a requestState whose round was answered before (its nonce already claimed). */
  private static async claim(nonce: string | undefined, rounds: Rounds | undefined) {
    if (!rounds || nonce === undefined) return;
    if (await rounds.claim(nonce, STATE_TTL_MS + 60_000)) return;
    throw new RpcError(
      ErrorCode.InvalidParams,
      "This requestState was already answered; a round runs once. Send the original request again, without requestState.",
    );
  }

  /** Opens the request's MRTR fields (-32602 when malformed, forged, expired or misplaced). */
  static async start(
    method: string,
    params: JsonObject,
    capabilities: ClientCapabilities,
    handles: Seals,
    rounds?: Rounds,
  ): Promise<InputSession> {
    const responses = params.inputResponses;
    if (responses !== undefined && !isJsonObject(responses)) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        "params.inputResponses must be an object keyed like inputRequests.",
      );
    }
    const given = responses ?? {};
    const state = params.requestState;
    if (state === undefined) {
      // Answers count only to questions this server asked, which a requestState proves: without
      // one, inputResponses answer nothing (the handler asks, and gets a fresh round).
      return new InputSession(method, params, undefined, {}, capabilities, handles, {
        state: undefined,
        responses: {},
      });
    }
    if (typeof state !== "string")
      throw new RpcError(
        ErrorCode.InvalidParams,
        "params.requestState must be the string the server sent.",
      );
    const opened = StateSchema.safeParse(
      await handles.openField(
        STATE_PURPOSE,
        state,
        "Send the original request again, without requestState.",
      ),
    );
    if (!opened.success)
      throw new RpcError(ErrorCode.InvalidParams, "requestState integrity check failed.");
    const { n, m, h, a, k, s } = opened.data;
    const digest = await paramsDigest(params);
    if (m !== method || h !== digest) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        "This requestState was issued for a different request; retry with the original method and params.",
      );
    }
    await InputSession.claim(n, rounds);
    // Earlier rounds' answers come from the state; this round may only answer what was asked.
    const answers = { ...a };
    const fresh: Record<string, unknown> = {};
    for (const key of k) {
      if (key in given) answers[key] = fresh[key] = given[key];
    }
    return new InputSession(method, params, digest, answers, capabilities, handles, {
      state: s,
      responses: fresh,
    });
  }

  /** Resolves with every answer, or throws InputRequiredSignal for the missing ones. */
  async input<T extends Record<string, InputRequest<unknown>>>(
    requests: T,
  ): Promise<InputAnswers<T>> {
    return answerInput(requests, this.answers, this.capabilities, (key, raw) => {
      this.#consumed[key] = raw;
    });
  }

  /** `ctx.relay` over MRTR: asking ends the round; the next round sees the state and answers. */
  relay(): Asking["relay"] {
    const { state, responses } = this.relayed;
    const { capabilities } = this;
    return {
      state,
      responses,
      ask(requests, next) {
        for (const request of Object.values(requests)) {
          const need = wireRequestNeeds(request, capabilities);
          if (need) throw undeclared(String(request.method), need);
        }
        return Promise.reject(new InputRequiredSignal(requests, next));
      },
    };
  }

  /** The `input_required` result for a signal, with a freshly sealed requestState. */
  async inputRequired(signal: InputRequiredSignal): Promise<JsonObject> {
    this.digest ??= await paramsDigest(this.params);
    const payload = {
      n: crypto.randomUUID(),
      m: this.method,
      h: this.digest,
      a: this.#consumed,
      k: Object.keys(signal.requests),
      ...(signal.state === undefined ? {} : { s: signal.state }),
    };
    const requestState = await this.handles.seal(STATE_PURPOSE, payload, { ttlMs: STATE_TTL_MS });
    return { resultType: "input_required", inputRequests: signal.requests, requestState };
  }
}

/** `ctx.input` for a 2026 method that may ask: MRTR, whose missing answers end the round. */
export async function modernAsking(setup: AskingSetup): Promise<EraAsking> {
  const { method, params, info, handles, coordination } = setup;
  const session = await InputSession.start(
    method,
    params,
    info.clientCapabilities,
    handles,
    coordination.rounds,
  );
  // Methods of a literal, not arrows: name-keeping bundlers would rename arrows per request.
  return {
    input(requests) {
      return session.input(requests);
    },
    relay: session.relay(),
    inputRequired(failure) {
      if (!(failure instanceof InputRequiredSignal)) return Promise.reject(failure);
      return session.inputRequired(failure);
    },
  };
}
