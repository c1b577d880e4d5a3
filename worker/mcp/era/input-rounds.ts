import type { Era } from "../../../shared/protocol/versions.ts";
import { sealing } from "../catalog/sealing.ts";
import type { AskingSetup, EraAsking, InputRounds } from "../define/input.ts";
import { InputRequiredSignal } from "../input/signal.ts";
import { legacyAsking } from "./legacy/input.ts";
import { modernAsking } from "./modern/mrtr.ts";

type Opener = (setup: AskingSetup) => Promise<EraAsking>;

/** How each era asks: MRTR rounds (2026), requests on the call's stream (2025). */
const OPENERS: Readonly<Record<Era, Opener>> = { modern: modernAsking, legacy: legacyAsking };

/**
 * Input rounds: lets handlers ask their clients for input (`ctx.input`, `ctx.relay`). Give it to
 * the servers that ask, `defineServer({ ..., input: inputRounds })`; a server without it links
 * none of this, and its handlers' `ctx.input` rejects. A 2026 round's requestState is sealed, so
 * input rounds bring `sealing` with them (and the server needs `EDGEMCP_SECRET`).
 */
export const inputRounds: InputRounds = {
  sealing,
  async asking(era, setup, answers) {
    const open = OPENERS[era];
    return answers ? open(setup) : onDemand(open, setup);
  },
};

/**
 * `ctx.input` and `ctx.relay` of a request that answers no earlier round, set up by the era
 * only when the handler first asks (most calls never do). Its members are bound: the context
 * hands them to the handler on their own.
 */
function onDemand(open: Opener, setup: AskingSetup): EraAsking {
  const demand = new Demand(open, setup);
  // Methods of a literal, not arrows: name-keeping bundlers would rename arrows per request.
  return {
    async input(requests) {
      return (await demand.open()).input(requests);
    },
    relay: {
      state: undefined,
      responses: {},
      async ask(requests, next) {
        return (await demand.open()).relay.ask(requests, next);
      },
    },
    // Only asking ends a round, so the era's asking is open by the time a signal reaches here.
    async inputRequired(failure) {
      if (!(failure instanceof InputRequiredSignal)) throw failure;
      const asking = await demand.open();
      if (!asking.inputRequired) throw failure;
      return asking.inputRequired(failure);
    },
  };
}

/** The era's asking for one request, set up on first use. */
class Demand {
  #opened: Promise<EraAsking> | undefined;

  constructor(
    private readonly opener: Opener,
    private readonly setup: AskingSetup,
  ) {}

  open(): Promise<EraAsking> {
    return (this.#opened ??= this.opener(this.setup));
  }
}
