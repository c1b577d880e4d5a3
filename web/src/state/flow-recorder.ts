import { AuthError, type AuthEvent } from "../../../shared/client/auth/index.ts";
import { type FlowExchange, type FlowStep, type FlowTrace } from "../lib/flow-trace.ts";
import { flowRun, type FlowRun } from "./sign-in.ts";

/**
 * Builds one server's sign-in trace from the client's steps (`AuthEvent`) and the requests the
 * sign-in's fetch saw: the requests sent since the last step belong to the next one. It shows
 * the trace in the flow view while it is the latest, and holds each request when the person
 * goes step by step.
 */
export class FlowRecorder {
  trace: FlowTrace;
  private pending: FlowExchange[] = [];
  private seen = new Set<FlowExchange>();
  stepByStep = false;
  state: FlowRun["state"] = "running";
  private extra: Pick<FlowRun, "next" | "openPage" | "cancel"> = {};

  constructor(server: string) {
    this.trace = { server, startedAt: Date.now(), steps: [] };
  }

  /** Starts a new trace for this server (a new sign-in), shown at once. */
  restart(stepByStep: boolean): void {
    this.trace = { server: this.trace.server, startedAt: Date.now(), steps: [] };
    this.pending = [];
    this.seen.clear();
    this.stepByStep = stepByStep;
    this.state = "running";
    this.extra = {};
    this.show(true);
  }

  record = (exchange: FlowExchange): void => {
    if (!this.seen.has(exchange)) {
      this.seen.add(exchange);
      this.pending.push(exchange);
    }
    this.show();
  };

  /** Holds a request until the person asks for it (step by step only). */
  gate = (method: string, url: string): Promise<void> => {
    if (!this.stepByStep) return Promise.resolve();
    return this.pause(`Send ${method} ${url}`);
  };

  /** Waits for the person's click; `atClick` runs inside it (where a popup may open). */
  pause(label: string, atClick?: () => void): Promise<void> {
    return new Promise((resolve) => {
      this.set("paused", {
        next: {
          label,
          go: () => {
            atClick?.();
            this.set("running", {});
            resolve();
          },
        },
      });
    });
  }

  event = (event: AuthEvent): void => {
    // The page sends the unauthenticated request itself and lists it as the first step (a
    // refresh's discovery has no 401 to show).
    if (event.step === "challenge") return;
    if (event.step === "authorization") {
      this.add({
        name: "pkce",
        status: "ok",
        summary:
          "PKCE with S256: the authorization request carries the code_challenge of a fresh code_verifier, which stays in this page's memory until the token request.",
        rule: "RFC 7636 §4.2; MCP authorization: PKCE",
      });
    }
    const pkce = event.status === "failed" && event.rule?.includes("PKCE");
    this.add({
      name: pkce ? "pkce" : event.step,
      status: event.status,
      summary: event.summary,
      ...(event.rule ? { rule: event.rule } : {}),
      ...(event.fix ? { fix: event.fix } : {}),
      ...(event.url && event.step === "authorization" ? { url: event.url } : {}),
    });
  };

  /** Adds a step with the requests sent since the last one. */
  add(step: Omit<FlowStep, "exchanges"> & { exchanges?: FlowExchange[] }): void {
    this.trace.steps.push({ ...step, exchanges: step.exchanges ?? this.pending.splice(0) });
    this.show();
  }

  /** Records why the sign-in stopped, unless the client already traced it as a failed step. */
  fail(error: unknown): void {
    if (this.trace.steps.at(-1)?.status !== "failed") {
      const last = this.trace.steps.at(-1)?.name;
      this.add(
        error instanceof AuthError
          ? {
              name: error.rule.includes("PKCE") ? "pkce" : error.step,
              status: "failed",
              rule: error.rule,
              summary: error.problem,
              ...(error.fix ? { fix: error.fix } : {}),
            }
          : {
              // Not the client's own words: the page's (the popup, the network).
              name: last === "authorization" ? "callback" : (last ?? "challenge"),
              status: "failed",
              summary: error instanceof Error ? error.message : String(error),
            },
      );
    }
    this.set("failed", {});
  }

  set(state: FlowRun["state"], extra: Pick<FlowRun, "next" | "openPage" | "cancel">): void {
    this.state = state;
    this.extra = extra;
    this.show();
  }

  /** Publishes the trace to the flow view while it is the one shown (or `take`: make it so). */
  show(take = false): void {
    const shown = flowRun.value?.trace;
    const mine =
      take || (shown?.server === this.trace.server && shown.startedAt === this.trace.startedAt);
    if (!mine) return;
    flowRun.value = {
      trace: { ...this.trace, steps: [...this.trace.steps] },
      state: this.state,
      ...this.extra,
    };
  }
}
