import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import type { LegacyMethod, ModernMethod } from "../../shared/protocol/methods.ts";
import type { ServerCapabilities } from "../../shared/protocol/capabilities.ts";
import type { Call, MethodHandler, Reply } from "./call.ts";

import { InputRequiredSignal } from "./input/signal.ts";
import type { Era } from "./context.ts";
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

/** The server capability a method belongs to; calling it when not advertised is -32601. */
const CAPABILITY: Readonly<Record<string, keyof ServerCapabilities>> = {
  "tools/list": "tools",
  "tools/call": "tools",
  "resources/list": "resources",
  "resources/read": "resources",
  "resources/templates/list": "resources",
  "prompts/list": "prompts",
  "prompts/get": "prompts",
  "completion/complete": "completions",
  "logging/setLevel": "logging",
  "tasks/get": "extensions",
  "tasks/update": "extensions",
  "tasks/cancel": "extensions",
  "resources/subscribe": "resources",
  "resources/unsubscribe": "resources",
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
  const capability = CAPABILITY[method];
  if (!handler || (capability && !capabilities[capability])) throw methodNotFound(method, era);
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
