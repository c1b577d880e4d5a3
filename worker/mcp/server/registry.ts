import type { Served } from "./server.ts";
import type { DurableCoordination } from "../ports.ts";

type Registered = {
  server: Served;
  coordination: ((env: Cloudflare.Env) => DurableCoordination) | undefined;
};

const servers = new Map<string, Registered>();

/**
 * Records a mounted server by name, so Durable Objects of the same Worker (which load the same
 * modules) can find it: a task runs its tool inside its own object, not in the request.
 */
export function registerServer(server: Served, coordination: Registered["coordination"]): void {
  servers.set(server.name, { server, coordination });
}

export function registeredServer(name: string): Registered | undefined {
  return servers.get(name);
}
