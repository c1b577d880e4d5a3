import type { Coordination } from "../durable/bindings.ts";
import type { Served } from "./server.ts";

type Registered = {
  server: Served;
  durable: ((env: Cloudflare.Env) => Coordination) | undefined;
};

const servers = new Map<string, Registered>();

/**
 * Records a mounted server by name, so Durable Objects of the same Worker (which load the same
 * modules) can find it: a task runs its tool inside its own object, not in the request.
 */
export function registerServer(server: Served, durable: Registered["durable"]): void {
  servers.set(server.name, { server, durable });
}

export function registeredServer(name: string): Registered | undefined {
  return servers.get(name);
}
