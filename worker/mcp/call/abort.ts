import type { Cancel } from "../context/context.ts";

/**
 * A call's cancellation. The handler's signal (`ctx.signal`) is made when something first reads
 * it, and only then tied to the request's signal: most calls never read it, and in workerd the
 * request's signal, an AbortController and a listener are native objects made per call (with
 * the body read, what this saved took an echo call's CPU down by a tenth). The call counts as
 * aborted once the client has gone away (the request's signal), has closed or stopped reading
 * its stream, or another request has cancelled it, whether or not its signal was made.
 */
export class CallAbort {
  #controller: AbortController | undefined;
  #reason: Error | undefined;
  /** The request's signal, once read. */
  #request: AbortSignal | undefined;
  #gone: (() => void) | undefined;
  #over = false;

  /** `client`: where the request's signal is read from (the framed POST). */
  constructor(private readonly client: Cancel) {}

  /** The handler's signal: aborted with the call, from the moment it is made. */
  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = (this.#controller = new AbortController());
    if (this.#reason) controller.abort(this.#reason);
    else if (!this.#over) {
      const request = this.#requestSignal();
      if (request.aborted) this.clientGone();
      else {
        this.#gone = () => this.clientGone();
        request.addEventListener("abort", this.#gone, { once: true });
      }
    }
    return controller.signal;
  }

  get aborted(): boolean {
    return this.#reason !== undefined || this.#requestSignal().aborted;
  }

  abort(reason: Error): void {
    if (this.#reason) return;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }

  clientGone(): void {
    this.abort(new Error("The client closed the request."));
  }

  /** The call is over: the request's signal no longer reaches it. */
  release(): void {
    this.#over = true;
    if (this.#gone) this.#requestSignal().removeEventListener("abort", this.#gone);
    this.#gone = undefined;
  }

  #requestSignal(): AbortSignal {
    return (this.#request ??= this.client.signal);
  }
}
