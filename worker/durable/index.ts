// The Durable Object classes of edgemcp (`import { ... } from "edgemcp/durable"`): export them
// from your Worker's entry module and bind them in wrangler.toml.
export { ListenBus } from "./listen-bus.ts";
export { Rendezvous } from "./rendezvous.ts";
export { TaskObject } from "./task-object.ts";
export { durableObjects } from "./drivers.ts";
export type { Coordination, DurableBindings, DurableDrivers } from "./bindings.ts";
