import * as oauth from "oauth4webapi";
import type { FetchLike } from "../options.ts";
import { AuthError, type AuthStepName } from "./errors.ts";
import { fetchFailureText } from "../../error-text.ts";
import { BodyTooLargeError, boundedFetch, isLoopback, MAX_AUTH_BODY_BYTES } from "./http.ts";
import type { AuthEvent, AuthObserver } from "./trace.ts";

/** A failure as the flow view shows it: the step, the rule, what went wrong, what must change. */
export function failureEvent(error: AuthError): AuthEvent {
  return {
    step: error.step,
    status: "failed",
    summary: error.problem,
    rule: error.rule,
    ...(error.fix ? { fix: error.fix } : {}),
    ...(error.url ? { url: error.url } : {}),
    ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
  };
}

/** What every step of a sign-in shares: its fetch, whether http is allowed, its observer. */
export class FlowContext {
  readonly fetch: FetchLike;

  constructor(
    base: FetchLike,
    private readonly observer: AuthObserver | undefined,
    private readonly allowHttp: boolean,
  ) {
    this.fetch = boundedFetch(base);
  }

  report(event: AuthEvent): void {
    this.observer?.(event);
  }

  private readonly told = new WeakSet<AuthError>();

  /** Reports a sign-in's failure as its step's last event (once, however far it travels). */
  failed(error: unknown): void {
    if (!(error instanceof AuthError) || this.told.has(error)) return;
    this.told.add(error);
    this.report(failureEvent(error));
  }

  /** Plain http is allowed on loopback, or everywhere when the caller said so (tests, dev). */
  insecureAllowed(url: URL): boolean {
    return this.allowHttp || isLoopback(url);
  }

  /** The options oauth4webapi takes for a request to `url`. */
  options(
    url: string,
    step: AuthStepName = "token",
  ): { [oauth.customFetch]: FetchLike; [oauth.allowInsecureRequests]: boolean } {
    return {
      [oauth.customFetch]: (target, init) => this.send(target, init, step),
      [oauth.allowInsecureRequests]: this.insecureAllowed(new URL(url)),
    };
  }

  /** GETs a metadata document. */
  get(url: string, step: AuthStepName): Promise<Response> {
    const target = new URL(url);
    if (target.protocol !== "https:" && !this.insecureAllowed(target)) {
      return Promise.reject(
        new AuthError(step, "OAuth 2.1 §1.5", `${url} is not https.`, {
          fix: "Every request of a sign-in must use TLS beyond this machine: the server's owner must serve it over https.",
          url,
        }),
      );
    }
    return this.send(url, { method: "GET", headers: { Accept: "application/json" } }, step);
  }

  /** Sends one request, turning a failure to reach the server or an oversized answer into its error. */
  async send(url: string, init: RequestInit, step: AuthStepName): Promise<Response> {
    try {
      return await this.fetch(url, init);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        throw new AuthError(
          step,
          "edgemcp limit",
          `The answer from ${url} is larger than ${MAX_AUTH_BODY_BYTES} bytes, more than any metadata or token response needs; it was not read.`,
          {
            fix: "The server's owner must keep its OAuth answers small (a metadata document is a few kilobytes).",
            url,
          },
        );
      }
      if (error instanceof AuthError) throw error;
      throw new AuthError(step, "network", `Could not reach ${url}: ${fetchFailureText(error)}.`, {
        url,
        cause: error,
      });
    }
  }
}
