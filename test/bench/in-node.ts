import { register } from "node:module";

// `cloudflare:workers` (imported by the hub) is the runtime's module; in Node a stand-in gives
// what the bench Workers use of it.
const STAND_IN = `export function waitUntil(promise) { promise.catch(() => {}); }
export class DurableObject {}
export const env = {};`;

/** Lets Worker bundles that import `cloudflare:workers` be imported in Node (profile, path). */
export function registerWorkersStandIn(): void {
  register(
    `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === "cloudflare:workers")
    return { url: "data:text/javascript,${encodeURIComponent(STAND_IN)}", shortCircuit: true };
  return next(specifier, context);
}`)}`,
  );
}
