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
