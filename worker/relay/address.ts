/**
 * What kind of address a URL's host names, as far as the relay cares: "loopback" (this machine),
 * "internal" (private, link-local, shared, multicast, metadata, reserved or documentation
 * ranges, and names that only resolve inside a network), or "public". The host is the WHATWG
 * URL parser's: it has already turned decimal, octal, hex and short IPv4 spellings into
 * dotted quads and IPv6 into its compressed form, so only those two forms are read here.
 */
export type AddressKind = "loopback" | "internal" | "public";

// [first address as a 32-bit number, prefix length]
const INTERNAL_V4: readonly [number, number][] = [
  [v4(0, 0, 0, 0), 8], // "this network"
  [v4(10, 0, 0, 0), 8],
  [v4(100, 64, 0, 0), 10], // carrier-grade NAT (Alibaba's metadata lives here)
  [v4(169, 254, 0, 0), 16], // link-local: cloud metadata endpoints
  [v4(172, 16, 0, 0), 12],
  [v4(192, 0, 0, 0), 24], // IETF protocol assignments
  [v4(192, 0, 2, 0), 24], // documentation
  [v4(192, 88, 99, 0), 24], // 6to4 relays
  [v4(192, 168, 0, 0), 16],
  [v4(198, 18, 0, 0), 15], // benchmarking
  [v4(198, 51, 100, 0), 24],
  [v4(203, 0, 113, 0), 24],
  [v4(224, 0, 0, 0), 4], // multicast
  [v4(240, 0, 0, 0), 4], // reserved, and broadcast
];

// Names that never mean a public server: single labels, mDNS, cloud-internal zones.
const INTERNAL_SUFFIXES = [
  ".local",
  ".internal",
  ".localdomain",
  ".home.arpa",
  ".lan",
  ".intranet",
];

function v4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function inRange(address: number, [start, bits]: readonly [number, number]): boolean {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (address & mask) >>> 0 === start;
}

function kindOfV4(address: number): AddressKind {
  if (address >>> 24 === 127) return "loopback";
  return INTERNAL_V4.some((range) => inRange(address, range)) ? "internal" : "public";
}

function parseV4(host: string): number | undefined {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!parts) return undefined;
  const bytes = parts.slice(1).map(Number);
  if (bytes.some((b) => b > 255)) return undefined;
  return v4(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
}

/**
 * The eight 16-bit groups of a compressed IPv6 address, as the URL parser writes it (always hex
 * groups: it turns a trailing dotted quad into two of them).
 */
function parseV6(text: string): number[] | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const read = (part: string) => (part === "" ? [] : part.split(":"));
  const groups = [...read(halves[0]!), ...read(halves[1] ?? "")];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  if (halves.length === 1 ? groups.length !== 8 : groups.length > 7) return undefined;
  const head = read(halves[0]!).map((g) => parseInt(g, 16));
  const rest = read(halves[1] ?? "").map((g) => parseInt(g, 16));
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}

function kindOfV6(groups: number[]): AddressKind {
  const [a, b] = groups;
  const embedded = (high: number, low: number) => kindOfV4(((high << 16) | low) >>> 0);
  if (groups.every((g, i) => g === (i === 7 ? 1 : 0))) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d)
  // carry an IPv4 address: never more reachable than that address, and never "loopback",
  // whose exception is for the plain spellings only.
  const mapped =
    groups.slice(0, 5).every((g) => g === 0) && (groups[5] === 0xffff || groups[5] === 0);
  const nat64 = a === 0x64 && b === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (mapped || nat64) return "internal";
  // 6to4 (2002:a.b.c.d::) reaches the IPv4 address it embeds.
  if (a === 0x2002) return embedded(b!, groups[2]!) === "public" ? "public" : "internal";
  // Only global unicast (2000::/3) is public, less Teredo, ORCHID and documentation ranges.
  if ((a! & 0xe000) !== 0x2000) return "internal";
  if (a === 0x2001 && (b! < 0x0200 || b === 0x0db8)) return "internal";
  return "public";
}

/** The kind of a WHATWG-parsed URL hostname (IPv6 in brackets; a trailing dot is ignored). */
export function addressKind(hostname: string): AddressKind {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[")) {
    const groups = parseV6(host.slice(1, -1));
    return groups ? kindOfV6(groups) : "internal";
  }
  const address = parseV4(host);
  if (address !== undefined) return kindOfV4(address);
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  if (!host.includes(".") || INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix)))
    return "internal";
  return "public";
}
