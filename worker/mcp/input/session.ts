import * as z from "zod";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import { isJsonObject, type JsonObject } from "../../../shared/jsonrpc.ts";
import type { ClientCapabilities } from "../../../shared/protocol/capabilities.ts";
import { openProtocolHandle } from "../../state/handles.ts";
import type { Sealer } from "../../state/sealer.ts";
import { missingCapabilities } from "../required-capabilities.ts";
import { paramsDigest } from "./digest.ts";
import { wireInputRequest, type InputRequest } from "./requests.ts";

/** The typed answers `ctx.input` resolves with, one per requested key. */
export type InputAnswers<T extends Record<string, InputRequest<unknown>>> = {
  [K in keyof T]: T[K] extends InputRequest<infer R> ? R : never;
};

/** Raised inside a handler when answers are missing; the runtime turns it into `input_required`. */
export class InputRequiredSignal extends Error {
  override readonly name = "InputRequiredSignal";
  constructor(readonly requests: Record<string, InputRequest<unknown>>) {
    super("The handler needs input from the client.");
  }
}

/**
 * Answers input requests from the answers at hand: checks each kind against the declared
 * capabilities (-32021), parses each answer (-32602 when malformed), and throws
 * InputRequiredSignal for the ones still missing. `use` sees every answer consumed.
 */
export function answerInput<T extends Record<string, InputRequest<unknown>>>(
  requests: T,
  answers: Record<string, unknown>,
  capabilities: ClientCapabilities,
  use: (key: string, raw: unknown) => void = () => {},
): InputAnswers<T> {
  const out: Record<string, unknown> = {};
  const missing: Record<string, InputRequest<unknown>> = {};
  for (const [key, request] of Object.entries(requests)) {
    if (!request.allowedBy(capabilities)) {
      const need = missingCapabilities(request.needs, capabilities) ?? request.needs;
      throw new RpcError(
        ErrorCode.MissingRequiredClientCapability,
        `This request needs to send ${request.method}, which the client did not declare (requiredCapabilities ${JSON.stringify(need)}).`,
        { requiredCapabilities: need },
        400,
      );
    }
    if (!(key in answers)) {
      missing[key] = request;
      continue;
    }
    const parsed = request.parse(answers[key]);
    if (!parsed.ok)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `inputResponses.${key} is not a valid answer to ${request.method}: ${parsed.reason}`,
      );
    use(key, answers[key]);
    out[key] = parsed.value;
  }
  if (Object.keys(missing).length > 0) throw new InputRequiredSignal(missing);
  return out as InputAnswers<T>;
}

const STATE_PURPOSE = "requestState";
const STATE_TTL_MS = 10 * 60_000;
const StateSchema = z.object({
  m: z.string(),
  h: z.string(),
  a: z.record(z.string(), z.unknown()),
  k: z.array(z.string()),
});

/**
 * Multi-round-trip input for one 2026-07-28 request. Answers come from `inputResponses` and,
 * from earlier rounds, from the sealed `requestState`, which binds the method, a digest of the
 * params, the caller and an expiry, so it cannot be forged, replayed elsewhere or reused late.
 */
export class InputSession {
  readonly #consumed: Record<string, unknown> = {};

  private constructor(
    private readonly method: string,
    private readonly params: JsonObject,
    /** The params digest, computed only when a requestState is checked or issued. */
    private digest: string | undefined,
    private readonly answers: Record<string, unknown>,
    private readonly capabilities: ClientCapabilities,
    private readonly sealer: Sealer,
    private readonly subject: string,
  ) {}

  static async start(
    method: string,
    params: JsonObject,
    capabilities: ClientCapabilities,
    sealer: Sealer,
    subject: string,
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
    if (state === undefined)
      return new InputSession(method, params, undefined, given, capabilities, sealer, subject);
    if (typeof state !== "string")
      throw new RpcError(
        ErrorCode.InvalidParams,
        "params.requestState must be the string the server sent.",
      );
    const opened = StateSchema.safeParse(
      await openProtocolHandle(
        sealer,
        STATE_PURPOSE,
        subject,
        state,
        "Send the original request again, without requestState.",
      ),
    );
    if (!opened.success)
      throw new RpcError(ErrorCode.InvalidParams, "requestState integrity check failed.");
    const { m, h, a, k } = opened.data;
    const digest = await paramsDigest(params);
    if (m !== method || h !== digest) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        "This requestState was issued for a different request; retry with the original method and params.",
      );
    }
    // Earlier rounds' answers come from the state; this round may only answer what was asked.
    const answers = { ...a };
    for (const key of k) if (key in given) answers[key] = given[key];
    return new InputSession(method, params, digest, answers, capabilities, sealer, subject);
  }

  /** Resolves with every answer, or throws InputRequiredSignal for the missing ones. */
  async input<T extends Record<string, InputRequest<unknown>>>(
    requests: T,
  ): Promise<InputAnswers<T>> {
    return answerInput(requests, this.answers, this.capabilities, (key, raw) => {
      this.#consumed[key] = raw;
    });
  }

  /** The `input_required` result for a signal, with a freshly sealed requestState. */
  async inputRequired(signal: InputRequiredSignal): Promise<JsonObject> {
    const keys = Object.keys(signal.requests);
    const requestState = await this.sealer.seal(
      STATE_PURPOSE,
      this.subject,
      {
        m: this.method,
        h: (this.digest ??= await paramsDigest(this.params)),
        a: this.#consumed,
        k: keys,
      },
      STATE_TTL_MS,
    );
    const inputRequests = Object.fromEntries(
      Object.entries(signal.requests).map(([key, request]) => [key, wireInputRequest(request)]),
    );
    return { resultType: "input_required", inputRequests, requestState };
  }
}
