import { prefixed, type Naming } from "./names.ts";

/**
 * Input request keys travel namespaced by upstream (`<upstream><sep><key>`), so a client that
 * talks to several upstreams through the hub never sees two meanings for one key.
 */
export function namespaceKeys<T>(
  upstream: string,
  entries: Readonly<Record<string, T>>,
  naming: Naming,
): Record<string, T> {
  return Object.fromEntries(
    Object.entries(entries).map(([key, value]) => [prefixed(upstream, key, naming), value]),
  );
}

/** The answers meant for `upstream`, under the keys it used; others are dropped. */
export function upstreamKeys<T>(
  upstream: string,
  entries: Readonly<Record<string, T>>,
  naming: Naming,
): Record<string, T> {
  const head = prefixed(upstream, "", naming);
  return Object.fromEntries(
    Object.entries(entries).flatMap(([key, value]) =>
      key.startsWith(head) ? [[key.slice(head.length), value]] : [],
    ),
  );
}
