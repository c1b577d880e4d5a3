import type { DurableCoordination, Tasks } from "../mcp/ports.ts";
import { coordinate } from "./coordinate.ts";
import type { Limiter } from "./limiter.ts";
import { limitsOver } from "./limits.ts";
import type { ListenBus } from "./listen-bus.ts";
import { listenHubOver } from "./listen-hub.ts";
import type { Rendezvous } from "./rendezvous.ts";
import { TaskService, type TaskStore } from "../mcp/durable.ts";
import { cancellationOver, roundsOver, serverRequestsOver } from "./rendezvous-ports.ts";
import type { TaskObject } from "./task-object.ts";
import { taskStoreOver } from "./task-store.ts";

/**
 * The Durable Object namespaces a server may coordinate through. Each is optional: without
 * one, the feature it carries is off (and, where a client asks for it, refused clearly).
 */
export type DurableBindings = {
  /**
   * Cross-instance cancellation, answers to server-to-client requests (2025 clients), and
   * single-use MRTR rounds.
   */
  rendezvous?: DurableObjectNamespace<Rendezvous>;
  /** `subscriptions/listen` streams and the events published to them. */
  bus?: DurableObjectNamespace<ListenBus>;
  /** Tasks (extension io.modelcontextprotocol/tasks), one object per task. */
  tasks?: DurableObjectNamespace<TaskObject>;
  /** Rate limits and caps per caller (requests, tool calls, listen streams, live tasks). */
  limits?: DurableObjectNamespace<Limiter>;
};

/**
 * The runtime's coordination ports over Durable Objects, for `mcpHandler(server, { durable })`:
 * `durable: (env) => durableObjects({ rendezvous: env.MCP_RENDEZVOUS, bus: env.MCP_BUS,
 * tasks: env.MCP_TASKS, limits: env.MCP_LIMITS })`. Each binding is optional.
 */
export function durableObjects(bindings: DurableBindings): DurableCoordination {
  const { rendezvous, bus, tasks, limits } = bindings;
  return coordinate({
    ...(rendezvous
      ? {
          cancellation: cancellationOver(rendezvous),
          serverRequests: serverRequestsOver(rendezvous),
          rounds: roundsOver(rendezvous),
        }
      : {}),
    ...(tasks ? { tasks: tasksIn(taskStoreOver(tasks)) } : {}),
    ...(bus ? { listen: listenHubOver(bus) } : {}),
    ...(limits ? { limits: limitsOver(limits) } : {}),
  });
}

/** Each caller's tasks, kept in the task objects. */
function tasksIn(store: TaskStore): Tasks {
  return { forCaller: (server, subject) => new TaskService(store, server, subject) };
}
