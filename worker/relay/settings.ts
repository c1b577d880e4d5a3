import { readVar } from "../env-vars.ts";
import { isLocalHost } from "../http/origin.ts";

/** How far the relay may go for one caller, each bound with the variable that changes it. */
export type RelayBounds = {
  /** Largest request body forwarded (`RELAY_MAX_REQUEST_BYTES`). */
  requestBytes: number;
  /** Largest response body passed back (`RELAY_MAX_RESPONSE_BYTES`). */
  responseBytes: number;
  /** Time for the target's status and headers (`RELAY_FIRST_BYTE_MS`). */
  firstByteMs: number;
  /** Longest quiet between two chunks of the body, SSE events included (`RELAY_IDLE_MS`). */
  idleMs: number;
  /** Longest exchange, first byte to last (`RELAY_TOTAL_MS`). */
  totalMs: number;
  /** Relayed exchanges one caller may have open at once (`RELAY_MAX_CONCURRENT`). */
  concurrent: number;
};

export const DEFAULT_BOUNDS: RelayBounds = {
  requestBytes: 1024 * 1024,
  responseBytes: 10 * 1024 * 1024,
  firstByteMs: 30_000,
  idleMs: 60_000,
  totalMs: 5 * 60_000,
  concurrent: 8,
};

export const BOUND_VARIABLES: Readonly<Record<keyof RelayBounds, string>> = {
  requestBytes: "RELAY_MAX_REQUEST_BYTES",
  responseBytes: "RELAY_MAX_RESPONSE_BYTES",
  firstByteMs: "RELAY_FIRST_BYTE_MS",
  idleMs: "RELAY_IDLE_MS",
  totalMs: "RELAY_TOTAL_MS",
  concurrent: "RELAY_MAX_CONCURRENT",
};

/** What the relay may do for one request: the mode, the allowlist and the bounds. */
export type RelaySettings = {
  /**
   * Local development: the request came to this machine's own address AND the Worker runs with
   * `RELAY_DEV=on` (`.dev.vars`, which `wrangler deploy` never uploads). Either alone is not
   * enough: a deployed Worker may be reached through a tunnel on localhost, and a rebound
   * attacker's name is not a loopback host.
   */
  dev: boolean;
  /** `RELAY_HOSTS`: exact hosts and `*.example.com` patterns, lower case; empty when unset. */
  hosts: readonly string[];
  bounds: RelayBounds;
};

/** Reads the relay's settings; a bound that is not a positive integer keeps its default. */
export function relaySettings(env: Cloudflare.Env, request: Request): RelaySettings {
  const bounds = { ...DEFAULT_BOUNDS };
  for (const key of Object.keys(BOUND_VARIABLES) as (keyof RelayBounds)[]) {
    const text = readVar(env, BOUND_VARIABLES[key]);
    const value = text === undefined || text.trim() === "" ? NaN : Number(text);
    if (Number.isSafeInteger(value) && value > 0) bounds[key] = value;
  }
  return {
    dev: readVar(env, "RELAY_DEV") === "on" && isLocalHost(new URL(request.url).hostname),
    hosts: parseHostList(readVar(env, "RELAY_HOSTS")),
    bounds,
  };
}

/** `RELAY_HOSTS` as a list: comma or space separated, lower case, trailing dots dropped. */
export function parseHostList(text: string | undefined): string[] {
  return (text ?? "")
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase().replace(/\.$/, ""))
    .filter((entry) => /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(entry));
}

/** Whether a host is on the list: an exact entry, or a `*.` entry it is a subdomain of. */
export function hostListed(hosts: readonly string[], hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return hosts.some((entry) =>
    entry.startsWith("*.") ? host.endsWith(entry.slice(1)) : host === entry,
  );
}
