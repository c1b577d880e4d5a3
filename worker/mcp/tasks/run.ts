import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import { MODERN_VERSION } from "../../../shared/protocol/versions.ts";
import { UNSEALED } from "../context/handles.ts";
import { createContext } from "../context/handler-context.ts";
import { sealingOf } from "../define/sealing.ts";
import { notifierFor } from "../context/notifier.ts";
import { answerInput } from "../input/answers.ts";
import { InputRequiredSignal } from "../input/signal.ts";
import { executeTool } from "../methods/tools.ts";
import { traceOf } from "../observe/trace.ts";
import { registeredServer } from "../server/registry.ts";
import type { TaskState } from "./state.ts";

/** What a run changed: the next status and what goes with it. */
type RunOutcome = Pick<TaskState, "status"> &
  Partial<
    Pick<
      TaskState,
      "statusMessage" | "result" | "error" | "inputRequests" | "pending" | "relayState"
    >
  >;

/**
 * Runs a task's tool inside its Durable Object, so the work survives the request that created
 * it. Input requests end the run with `input_required`; `tasks/update` answers them and the
 * tool runs again from the start with every answer so far.
 */
export async function runTask(
  state: TaskState,
  env: Cloudflare.Env,
  signal: AbortSignal,
  waitUntil: (p: Promise<unknown>) => void,
): Promise<RunOutcome> {
  const registered = registeredServer(state.server);
  const catalog = await registered?.server.catalogFor({ env, waitUntil });
  const tool = catalog?.tools.get(state.tool);

  if (!registered || !tool) {
    return {
      status: "failed",
      error: {
        code: ErrorCode.InternalError,
        message: `Tool "${state.tool}" of server "${state.server}" is no longer deployed.`,
      },
    };
  }
  const sealing = catalog && sealingOf(catalog.definition);
  const trace = traceOf(undefined, undefined);
  const ctx = createContext({
    request: {
      id: state.taskId,
      method: "tools/call",
      era: "modern",
      protocolVersion: MODERN_VERSION,
      clientCapabilities: state.capabilities,
      correlationId: trace.spanId,
      traceparent: trace.traceparent,
    },
    env,
    waitUntil,
    // A task has no stream to its client: progress and logs have nowhere to go.
    send: () => false,
    logs: () => false,
    cancel: { signal },
    caller: state.subject ? { subject: state.subject } : undefined,
    // The request that created the task passed the secrets check (see `sealing`).
    handles: sealing ? sealing.seals(env, state.server, state.subject, true) : UNSEALED,
    notify: notifierFor(registered.coordination?.(env).ports.listen, state.server),
    asking: {
      input: async (requests) => answerInput(requests, state.answers, state.capabilities),
      relay: {
        state: state.relayState,
        // The answers to what the previous run asked (its requests stay on the task).
        responses: Object.fromEntries(
          Object.keys(state.inputRequests ?? {})
            .filter((k) => k in state.answers)
            .map((k) => [k, state.answers[k]]),
        ),
        ask: (requests, next) => Promise.reject(new InputRequiredSignal(requests, next)),
      },
    },
  });
  try {
    const result = await executeTool(tool, state.args, ctx);
    return { status: "completed", result: { resultType: "complete", ...result } };
  } catch (error) {
    if (error instanceof InputRequiredSignal) {
      const inputRequests = error.requests;
      return {
        relayState: error.state,

        status: "input_required",
        statusMessage: "Waiting for input from the client",
        inputRequests,
        pending: Object.keys(inputRequests),
      };
    }
    if (error instanceof RpcError) {
      return {
        status: "failed",
        error: {
          code: error.code,
          message: error.message,
          ...(error.data === undefined ? {} : { data: error.data }),
        },
      };
    }
    console.error(`Task ${state.taskId} (${state.tool}) failed`, error);
    return {
      status: "failed",
      error: { code: ErrorCode.InternalError, message: "Internal error: the task failed." },
    };
  }
}
