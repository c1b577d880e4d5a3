import * as z from "zod/mini";
import type { RequestOptions } from "../../shared/client/index.ts";
import { abortable, linkedController } from "../../shared/abortable.ts";
import { namespaceKeys, upstreamKeys } from "../../shared/hub/input-keys.ts";

import type { Naming } from "../../shared/hub/names.ts";
import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { isJsonObject } from "../../shared/jsonrpc.ts";
import type { JsonObject } from "../../shared/protocol/messages.ts";
import { upstreamLogLevel, type HandlerContext } from "../mcp/index.ts";
import type { LogLevel } from "../../shared/protocol/meta.ts";
import { DirectUpstream, type DirectOptions, type Upstream } from "./direct.ts";

const MAX_ROUNDS = 8;
/** What the hub keeps between input rounds: the upstream's own requestState. */
const RelayStateSchema = z.object({ upstreamState: z.optional(z.string()) });

/**
 * A signal that aborts with the call, or when the upstream has been quiet for `idleMs`. One
 * controller that the call's signal is linked to (`AbortSignal.any` would add a signal and weak
 * references per call), made when the signal is first read: a server of this Worker called
 * directly reads it only if its handler does, and in workerd each signal, controller and
 * listener is a native object. `rest` holds the timer until the next `touch`, `stop` ends the
 * timer and the link; `race` bounds a request by the timer (and by the call, once linked).
 */
export function idleTimeout(idleMs: number, outer: Cancel | AbortSignal): IdleTimeout {
  return new IdleTimeout(idleMs, outer);
}

/** Where the call's signal is read from, when something needs it. */
type Cancel = { readonly signal: AbortSignal };

class IdleTimeout {
  #controller: AbortController | undefined;
  #unlink: (() => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  /** Why the upstream counts as gone, once the timer fired. */
  #quietReason: Error | undefined;
  /** Fails the request being raced, when the timer fires. */
  #fail: ((reason: Error) => void) | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly outer: Cancel | AbortSignal,
  ) {
    this.touch();
  }

  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const { outer } = this;
    const signal = outer instanceof AbortSignal ? outer : outer.signal;
    // Once stopped, the call no longer reaches it.
    const { controller, unlink } = linkedController(this.#stopped ? undefined : signal);
    this.#controller = controller;
    this.#unlink = unlink;
    if (this.#quietReason && !controller.signal.aborted) controller.abort(this.#quietReason);
    return controller.signal;
  }

  /** The upstream showed signs of life: the quiet time starts again. */
  touch(): void {
    this.rest();
    this.#timer = setTimeout(() => this.#quiet(), this.idleMs);
  }

  rest(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }

  stop(): void {
    this.rest();
    this.#stopped = true;
    this.#unlink?.();
  }

  /**
   * `work`, or a failure as soon as the upstream has been quiet too long; once the signal was
   * made (a client's request reads it), also as soon as the call aborts.
   */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.#controller) return abortable(work, this.#controller.signal);
    if (this.#quietReason) return Promise.reject(this.#quietReason);
    return new Promise<T>((resolve, reject) => {
      this.#fail = reject;
      work.then(resolve, reject);
    });
  }

  #quiet(): void {
    const reason = new Error(`no answer within ${Math.round(this.idleMs / 1000)} s`);
    this.#quietReason = reason;
    this.#controller?.abort(reason);
    this.#fail?.(reason);
  }
}

/** The log level asked of the upstream: the one the hub's client gets its own logs at. */
function logLevelFor(ctx: HandlerContext): { logLevel?: LogLevel } {
  const logLevel = upstreamLogLevel(ctx.request);
  return logLevel ? { logLevel } : {};
}

export type Forwarding = {
  ctx: HandlerContext;
  client: Upstream;
  upstream: string;
  naming: Naming;
  idleMs: number;
};

/**
 * Sends one request upstream on behalf of the hub's client and follows it to the end:
 * progress and logs flow back, closing the hub's stream cancels the upstream call, and input
 * the upstream asks for is relayed under namespaced keys, its requestState wrapped in the
 * hub's own (sealed) requestState.
 */
export async function forward(
  method: string,
  params: JsonObject,
  { ctx, client, upstream, naming, idleMs }: Forwarding,
): Promise<JsonObject> {
  // The call's signal is read only where something needs it (see IdleTimeout).
  const idle = idleTimeout(idleMs, ctx);
  // Methods, not arrows: bundlers keeping names would wrap an arrow property on every call. A
  // server of this Worker called directly takes the signal's source, and reads it if it needs it.
  const options: DirectOptions = {
    ...(client instanceof DirectUpstream ? { cancel: idle } : { signal: idle.signal }),
    onProgress(p) {
      idle.touch();
      ctx.progress(p.progress, p.total, p.message);
    },
    onLog(m) {
      idle.touch();
      ctx.log(m.level, m.data, m.logger);
    },
    ...logLevelFor(ctx),
    // The upstream's work continues this request's trace, with this request as its parent: a
    // server of this Worker called directly reads it only if something there needs it.
    ...(client instanceof DirectUpstream
      ? { trace: ctx.request }
      : { meta: { traceparent: ctx.request.traceparent } }),
  };
  const upstreamCall = { client, method, params, options, idle };
  try {
    // A first call has no state: no schema to run for it.
    const state = ctx.relay.state;
    const resumed = state === undefined ? undefined : RelayStateSchema.safeParse(state);
    let result = resumed?.success
      ? await send(upstreamCall, {
          inputResponses: upstreamKeys(upstream, ctx.relay.responses, naming),
          ...stateParam(resumed.data.upstreamState),
        })
      : await send(upstreamCall, undefined);
    for (let round = 1; result.resultType === "input_required"; round++) {
      if (round > MAX_ROUNDS)
        throw new RpcError(
          ErrorCode.InternalError,
          `Upstream "${upstream}" asked for input more than ${MAX_ROUNDS} times.`,
        );
      const requests = isJsonObject(result.inputRequests) ? result.inputRequests : {};
      const upstreamState =
        typeof result.requestState === "string" ? result.requestState : undefined;
      const wire = Object.fromEntries(
        Object.entries(requests).filter((entry): entry is [string, JsonObject] =>
          isJsonObject(entry[1]),
        ),
      );
      // The hub's own client may take its time to answer (a person, for a 2025 client): the
      // upstream is not the one keeping it waiting, so the idle timer rests until the answer.
      idle.rest();
      const answers = await ctx.relay.ask(namespaceKeys(upstream, wire, naming), { upstreamState });
      idle.touch();
      result = await send(upstreamCall, {
        inputResponses: upstreamKeys(upstream, answers, naming),
        ...stateParam(upstreamState),
      });
    }
    return result;
  } finally {
    idle.stop();
  }
}

/** One request of a forwarded call, with `extra` params (a round's answers), bounded by `signal`. */
function send(
  call: {
    client: Upstream;
    method: string;
    params: JsonObject;
    options: RequestOptions;
    idle: IdleTimeout;
  },
  extra: JsonObject | undefined,
): Promise<JsonObject> {
  const { client, method, params, options, idle } = call;
  const sent = extra ? { ...params, ...extra } : params;
  return idle.race(client.request(method, sent, options));
}

function stateParam(state: string | undefined): JsonObject {
  return state === undefined ? {} : { requestState: state };
}
