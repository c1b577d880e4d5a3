import type { Caller } from "../../auth/bearer.ts";

/**
 * Who is calling, across endpoints: the caller's subject or, without sessions, an anonymous
 * caller's address, an IPv6 one by its /64 (what rates, caps and cancellation are keyed by).
 */
export function callerIdentity(caller: Caller | undefined, headers: Headers): string {
  if (caller) return `sub:${caller.subject}`;
  const address = headers.get("CF-Connecting-IP");
  return `ip:${address === null ? "local" : addressKey(address)}`;
}

/**
 * The part of a client address one caller controls: an IPv4 address whole, an IPv6 address's
 * /64 network (one subscriber usually gets a whole /64, so its 2^64 addresses are one caller).
 * Anything that does not parse as an address is kept as given.
 */
export function addressKey(address: string): string {
  if (!address.includes(":")) return address;
  const groups = ipv6Groups(address.trim().toLowerCase());
  if (!groups) return address;
  // An IPv4 address written as IPv6 (::ffff:192.0.2.1) is that IPv4 caller.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (with `::` and a dotted IPv4 tail), or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  const zone = text.indexOf("%");
  const address = zone === -1 ? text : text.slice(0, zone);
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] | undefined => {
    if (part === "") return [];
    const out: number[] = [];
    const pieces = part.split(":");
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && piece.includes(".")) {
        const bytes = piece.split(".").map(Number);
        if (bytes.length !== 4 || bytes.some((b) => !Number.isInteger(b) || b < 0 || b > 255))
          return undefined;
        out.push((bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!);
      } else if (/^[0-9a-f]{1,4}$/.test(piece)) out.push(parseInt(piece, 16));
      else return undefined;
    }
    return out;
  };
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return undefined;
  return [...head, ...Array<number>(missing).fill(0), ...tail];
}
