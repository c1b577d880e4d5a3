import type { AskingSetup, EraAdapter, EraAsking } from "../era/era.ts";

/**
 * `ctx.input` and `ctx.relay` of a request that answers no earlier round, set up by the era
 * only when the handler first asks (most calls never do). Its members are bound: the context
 * hands them to the handler on their own.
 */
export function askingOnDemand(era: EraAdapter, setup: AskingSetup): EraAsking {
  const demand = new Demand(era, setup);
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
    // Only asking ends a round, so the era's asking is open by the time this is reached.
    async inputRequired(signal) {
      const asking = await demand.open();
      if (!asking.inputRequired) throw signal;
      return asking.inputRequired(signal);
    },
  };
}

/** The era's asking for one request, set up on first use. */
class Demand {
  #opened: Promise<EraAsking> | undefined;

  constructor(
    private readonly era: EraAdapter,
    private readonly setup: AskingSetup,
  ) {}

  open(): Promise<EraAsking> {
    return (this.#opened ??= this.era.asking(this.setup));
  }
}
