import type { Rendezvous } from "./rendezvous.ts";

/**
 * The Durable Object namespaces the runtime coordinates through. Each is optional: without
 * one, the feature it carries is off (and, where a client asks for it, refused clearly).
 */
export type DurableBindings = {
  /** Cross-instance cancellation and answers to server-to-client requests (2025 clients). */
  rendezvous?: DurableObjectNamespace<Rendezvous>;
};
