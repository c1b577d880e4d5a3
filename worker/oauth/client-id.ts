import { isLocalHost } from "../http/origin.ts";

/**
 * Why a client ID that is a URL (a Client ID Metadata Document) is refused before anything
 * fetches it: a host that names this network rather than the internet (loopback, private and
 * link-local ranges, `.local`, `.internal`, a bare name). On Cloudflare the
 * `global_fetch_strictly_public` flag refuses such fetches too; this also holds under
 * `wrangler dev` and says so in words. `loopback` lets a document on this machine through (a
 * Worker served on loopback, whose operator asked for it: a host under test here). Undefined
 * for any other client ID.
 */
export function refusedClientId(clientId: string, loopback = false): string | undefined {
  if (!/^https?:\/\//i.test(clientId)) return undefined;
  let host: string;
  try {
    host = new URL(clientId).hostname.toLowerCase();
  } catch {
    return "Its client ID is not a valid URL.";
  }
  if (loopback && isLocalHost(host)) return undefined;
  return privateHost(host)
    ? "Its client ID names a private or local address: a client metadata document must be on the public internet."
    : undefined;
}

function privateHost(host: string): boolean {
  if (host.startsWith("[")) {
    const v6 = host.slice(1, -1);
    return (
      v6 === "::1" ||
      v6 === "::" ||
      /^f[cd]/.test(v6) ||
      /^fe[89ab]/.test(v6) ||
      v6.startsWith("::ffff:")
    );
  }
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  return (
    !host.includes(".") ||
    host === "localhost" ||
    /\.(localhost|local|internal|lan|home\.arpa)$/.test(host)
  );
}
