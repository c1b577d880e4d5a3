/** How the hub spells a member of an upstream: `<upstream><separator><name>`. */
export type Naming = { separator: string };

/** Tool and prompt names clients accept (1-128 of A-Z a-z 0-9 _ . -). */
const VALID_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export function prefixed(upstream: string, name: string, { separator }: Naming): string {
  return `${upstream}${separator}${name}`;
}

/** Whether a prefixed name is one clients accept. */
export function isValidName(name: string): boolean {
  return VALID_NAME.test(name);
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
