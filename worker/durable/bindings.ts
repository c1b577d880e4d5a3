import type { JsonRpcId } from "../../shared/protocol/messages.ts";
import type { HandlerContext } from "../mcp/context.ts";
import type { Notify } from "../mcp/reply.ts";
import type { TaskService } from "../mcp/tasks/service.ts";
import type { ListenBus } from "./listen-bus.ts";
import type { Rendezvous } from "./rendezvous.ts";
import type { TaskObject } from "./task-object.ts";

/**
 * The Durable Object namespaces the runtime coordinates through. Each is optional: without
 * one, the feature it carries is off (and, where a client asks for it, refused clearly).
 */
export type DurableBindings = {
  /** Cross-instance cancellation and answers to server-to-client requests (2025 clients). */
  rendezvous?: DurableObjectNamespace<Rendezvous>;
  /** `subscriptions/listen` streams and the events published to them. */
  bus?: DurableObjectNamespace<ListenBus>;
  /** Tasks (extension io.modelcontextprotocol/tasks), one object per task. */
  tasks?: DurableObjectNamespace<TaskObject>;
};

/**
 * The request-side code that drives the objects. It comes with `durableObjects()`, so a Worker
 * that binds none does not carry it.
 */
export type DurableDrivers = {
  /** One caller's tasks of one server. */
  tasks(
    namespace: DurableObjectNamespace<TaskObject>,
    server: string,
    subject: string,
  ): TaskService;
  /** Aborts a running call when its cancellation is posted from any instance; returns `stop`. */
  watchCancel(
    namespace: DurableObjectNamespace<Rendezvous>,
    key: string,
    id: JsonRpcId,
    abort: (reason: string) => void,
  ): () => void;
  /** Records a `notifications/cancelled` for a call that may run on any instance. */
  postCancel(
    namespace: DurableObjectNamespace<Rendezvous>,
    key: string,
    id: JsonRpcId,
    reason: string | undefined,
  ): Promise<void>;
  /** Hands a 2025 client's answer to the call waiting for it, on whichever instance. */
  postAnswer(
    namespace: DurableObjectNamespace<Rendezvous>,
    id: string,
    body: string,
  ): Promise<void>;
  /** `ctx.input` and `ctx.relay` for 2025 clients, over server-to-client requests. */
  legacyInput(
    notify: Notify,
    signal: AbortSignal,
    namespace: DurableObjectNamespace<Rendezvous>,
  ): Pick<HandlerContext, "input" | "relay">;
};

/** What `mcpHandler`'s `durable` option returns: `durableObjects({ ... })`. */
export type Coordination = DurableBindings & { drivers: DurableDrivers };

/** The runtime's view: no namespaces, or namespaces with their drivers. */
export type DurableSetup = DurableBindings & { drivers?: DurableDrivers };
