// The Durable Object classes of edgemcp (`import { ... } from "edgemcp/durable"`): export them
// from your Worker's entry module and bind them in wrangler.toml.
import type { Coordination, DurableCoordination } from "../mcp/ports.ts";

export { Limiter } from "./limiter.ts";
export { ListenBus } from "./listen-bus.ts";
export { Rendezvous } from "./rendezvous.ts";
export { TaskObject } from "./task-object.ts";
export { durableObjects, type DurableBindings } from "./coordination.ts";
export { coordinate } from "./coordinate.ts";
export type { Coordination, DurableCoordination };
/** The coordination ports `durableObjects()` fills (the same type as `Coordination`). */
export type DurableDrivers = Coordination;
