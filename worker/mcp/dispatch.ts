import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import type { LegacyMethod, ModernMethod } from "../../shared/protocol/methods.ts";
import type { ServerCapabilities } from "../../shared/protocol/capabilities.ts";
import { TASKS_EXTENSION } from "../../shared/protocol/tasks.ts";
import type { Call, MethodHandler, Reply } from "./call.ts";

import { InputRequiredSignal } from "./input/signal.ts";
import type { Era } from "../../shared/protocol/versions.ts";
import { complete } from "./methods/completion.ts";
import { discover } from "./methods/discover.ts";
import { acknowledgeSubscription, initialize, ping, setLevel } from "./methods/legacy.ts";
import { getPrompt, listPrompts } from "./methods/prompts.ts";
import { listResources, listResourceTemplates, readResource } from "./methods/resources.ts";
import { callTool, listTools } from "./methods/tools.ts";
import { cancelTask, getTask, updateTask } from "./methods/tasks.ts";

const common = {
  "tools/list": listTools,
  "tools/call": callTool,
  "resources/list": listResources,
  "resources/read": readResource,
  "resources/templates/list": listResourceTemplates,
  "prompts/list": listPrompts,
  "prompts/get": getPrompt,
  "completion/complete": complete,
};

const MODERN = {
  ...common,
  "server/discover": discover,
  "tasks/get": getTask,
  "tasks/update": updateTask,
  "tasks/cancel": cancelTask,
} satisfies Record<ModernMethod, MethodHandler>;

const LEGACY = {
  ...common,
  initialize,
  ping,
  "logging/setLevel": setLevel,
  "resources/subscribe": acknowledgeSubscription,
  "resources/unsubscribe": acknowledgeSubscription,
} satisfies Record<LegacyMethod, MethodHandler>;

/** Whether the server offers what a method belongs to; calling it when not offered is -32601. */
const offers = (key: keyof ServerCapabilities) => (caps: ServerCapabilities) => Boolean(caps[key]);
const offersTasks = (caps: ServerCapabilities) => caps.extensions?.[TASKS_EXTENSION] !== undefined;
const CAPABILITY: Readonly<Record<string, (caps: ServerCapabilities) => boolean>> = {
  "tools/list": offers("tools"),
  "tools/call": offers("tools"),
  "resources/list": offers("resources"),
  "resources/read": offers("resources"),
  "resources/templates/list": offers("resources"),
  "prompts/list": offers("prompts"),
  "prompts/get": offers("prompts"),
  "completion/complete": offers("completions"),
  "logging/setLevel": offers("logging"),
  "tasks/get": offersTasks,
  "tasks/update": offersTasks,
  "tasks/cancel": offersTasks,
  "resources/subscribe": offers("resources"),
  "resources/unsubscribe": offers("resources"),
};

function lookup(era: Era, method: string): MethodHandler | undefined {
  const table: Readonly<Record<string, MethodHandler>> = era === "modern" ? MODERN : LEGACY;
  return Object.hasOwn(table, method) ? table[method] : undefined;
}

/** The handler for `method`, or -32601 when it does not exist or its capability is not offered. */
export function resolveMethod(
  capabilities: ServerCapabilities,
  era: Era,
  method: string,
): MethodHandler {
  const handler = lookup(era, method);
  const offered = CAPABILITY[method];
  if (!handler || (offered && !offered(capabilities))) throw methodNotFound(method, era);
  return handler;
}

/**
 * Runs one request's handler (from `resolveMethod`); a handler waiting for client input ends
 * the round with `input_required`.
 */
export async function dispatch(handler: MethodHandler, call: Call): Promise<Reply> {
  try {
    return await handler(call);
  } catch (error) {
    if (error instanceof InputRequiredSignal && call.input) return call.input.inputRequired(error);
    throw error;
  }
}

export function methodNotFound(method: string, era: Era): RpcError {
  const hint =
    era === "legacy" && method === "server/discover"
      ? " (server/discover needs the 2026-07-28 _meta envelope)"
      : "";
  return new RpcError(ErrorCode.MethodNotFound, `Method not found: "${method}"${hint}.`, {
    method,
  });
}
