import type { Rendezvous } from "./rendezvous.ts";

/** Waits for the message posted under `name`; rejects when `signal` aborts first. */
export async function awaitMessage(
  namespace: DurableObjectNamespace<Rendezvous>,
  name: string,
  signal: AbortSignal,
): Promise<string> {
  const response = await namespace.getByName(name).fetch("https://rendezvous/wait", { signal });
  return await response.text();
}

/** Posts the message for `name`. */
export async function postMessage(
  namespace: DurableObjectNamespace<Rendezvous>,
  name: string,
  message: string,
): Promise<void> {
  await namespace.getByName(name).post(message);
}
