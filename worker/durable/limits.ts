import type { Limits } from "../mcp/ports.ts";
import type { Limiter } from "./limiter.ts";

/** Each caller's limits in a limiter object of its own, named after the caller. */
export function limitsOver(namespace: DurableObjectNamespace<Limiter>): Limits {
  const of = (caller: string) => namespace.getByName(caller);
  return {
    take: (caller, budgets) => of(caller).take(budgets),
    acquire: (caller, lease) => of(caller).acquire(lease),
    release: (caller, kind, id) => of(caller).release(kind, id),
  };
}
