import { NAME_PATTERN } from "../protocol/primitives.ts";

/** How the hub spells a member of an upstream: `<upstream><separator><name>`. */
export type Naming = { separator: string };

export function prefixed(upstream: string, name: string, { separator }: Naming): string {
  return `${upstream}${separator}${name}`;
}

/** Whether a prefixed name is one clients accept. */
export function isValidName(name: string): boolean {
  return NAME_PATTERN.test(name);
}

/**
 * Splits a prefixed name back into upstream and original name. The longest matching upstream
 * name wins, so `a__b__c` belongs to `a__b` when both `a` and `a__b` exist.
 */
export function splitPrefixed(
  name: string,
  upstreams: readonly string[],
  { separator }: Naming,
): { upstream: string; original: string } | undefined {
  let best: { upstream: string; original: string } | undefined;
  for (const upstream of upstreams) {
    const head = `${upstream}${separator}`;
    if (
      name.startsWith(head) &&
      name.length > head.length &&
      (!best || upstream.length > best.upstream.length)
    ) {
      best = { upstream, original: name.slice(head.length) };
    }
  }
  return best;
}
