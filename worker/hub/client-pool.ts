import {
  connect,
  McpError,
  type ClientOptions,
  type InputHandlers,
  type McpClient,
} from "../../shared/client/index.ts";
import type { ClientCapabilities } from "../../shared/protocol/capabilities.ts";
import { abortable } from "../../shared/abortable.ts";
import { sendsAddress, transportOf, type UpstreamConfig } from "./upstreams.ts";

/** How many upstream clients one isolate keeps, and how many of them one caller may hold. */
export type PoolLimits = { maxClients: number; maxPerCaller: number };
const DEFAULT_LIMITS: PoolLimits = { maxClients: 256, maxPerCaller: 16 };

/** Who a hub request is for: the upstream sees the same capabilities (and, nearby, credentials). */
export type Principal = {
  subject: string;
  credential?: string;
  capabilities: ClientCapabilities;
  /** The hub itself, listing catalogs (lists, nothing else): never shares a client or a quota with a caller. */
  listing?: true;
  /**
   * An anonymous caller's address (its /64 for IPv6): servers of this Worker and service
   * bindings are told it, so that their limits count each anonymous caller of the hub apart.
   */
  address?: string;
};

/**
 * The upstream clients' input handlers, for the capabilities the hub's client declared (an
 * upstream sees those). A 2026 upstream never reaches them: it returns `input_required`, which
 * the hub relays to its own client. A 2025 upstream sends elicitation, sampling or roots
 * requests in the middle of a call, which the hub cannot pass on; they are refused (-32603 to
 * the upstream) with a message that says so.
 */
function relayHandlers(capabilities: ClientCapabilities): InputHandlers {
  const refuse = (method: string) => () =>
    Promise.reject(
      new McpError(
        `The hub cannot relay ${method} from a 2025 server to its own client; it relays only the input_required results of 2026 servers.`,
        { kind: "client", method },
      ),
    );
  return {
    ...(capabilities.elicitation ? { elicitation: refuse("elicitation/create") } : {}),
    ...(capabilities.sampling ? { sampling: refuse("sampling/createMessage") } : {}),
    ...(capabilities.roots ? { roots: refuse("roots/list") } : {}),
  };
}

/**
 * Connected clients to upstreams, one per upstream, principal and capability set, kept per
 * isolate so discover results, tool lists and caches are reused. A failed connect is not kept,
 * so an upstream that was down is tried again on the next request.
 *
 * Callers are kept apart: each caller (subject, or the hub's own listing) holds at most
 * `maxPerCaller` clients and a new one evicts only that caller's oldest; once the pool is full,
 * a new caller's client is used for its request and not kept, so no caller, whatever
 * capabilities it declares or failures it causes, evicts another caller's connections.
 */
export class ClientPool {
  readonly #clients = new Map<string, Promise<McpClient>>();
  /** The connected ones among them, handed out as they are. */
  readonly #ready = new Map<string, McpClient>();
  /** Each caller's keys, oldest first. */
  readonly #byCaller = new Map<string, string[]>();
  readonly #limits: PoolLimits;

  constructor(
    private readonly upstreams: ReadonlyMap<string, UpstreamConfig>,
    /** How long connecting to an upstream may take. */
    private readonly connectTimeoutMs: number,
    limits: Partial<PoolLimits> = {},
  ) {
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** How many clients the pool keeps now. */
  get size(): number {
    return this.#clients.size;
  }

  client(
    upstream: string,
    principal: Principal,
    env: Cloudflare.Env,
    signal: AbortSignal,
  ): Promise<McpClient> {
    const config = this.upstreams.get(upstream);
    if (!config) return Promise.reject(new Error(`The hub has no upstream named "${upstream}".`));
    // Anonymous callers share a client, except where their address goes with it.
    const address = sendsAddress(config) ? principal.address : undefined;
    const caller = poolCaller(principal, address);
    // The credential is part of the key: a pooled client forwards the one it was created with.
    const key = `${upstream}\n${caller}\n${principal.credential ?? ""}\n${JSON.stringify(principal.capabilities)}`;
    const ready = this.#ready.get(key);
    if (ready) return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve(ready);
    const pooled = this.#clients.get(key);
    if (pooled) return abortable(pooled, signal);
    // A connect that outlives its caller or the timeout is dropped, even if the upstream never
    // answers; callers that find it pending wait for it as long as their own signal allows.
    const connecting = AbortSignal.any([signal, AbortSignal.timeout(this.connectTimeoutMs)]);
    const pending = abortable(
      connect(...this.#connection(config, principal, address, env, connecting)),
      connecting,
    );
    const keys = this.#byCaller.get(caller) ?? [];
    if (keys.length >= this.#limits.maxPerCaller) this.#forget(caller, keys[0]!);
    if (this.#clients.size >= this.#limits.maxClients) {
      pending.catch(() => {});
      return abortable(pending, signal);
    }
    // Only this entry: once evicted, the key may hold a newer client for the same principal.
    pending.then(
      (client) => {
        if (this.#clients.get(key) === pending) this.#ready.set(key, client);
      },
      () => {
        if (this.#clients.get(key) === pending) this.#forget(caller, key);
      },
    );
    this.#clients.set(key, pending);
    this.#byCaller.set(caller, [...(this.#byCaller.get(caller) ?? []), key]);
    return abortable(pending, signal);
  }

  #forget(caller: string, key: string): void {
    this.#clients.delete(key);
    this.#ready.delete(key);
    const rest = (this.#byCaller.get(caller) ?? []).filter((k) => k !== key);
    if (rest.length > 0) this.#byCaller.set(caller, rest);
    else this.#byCaller.delete(caller);
  }

  #connection(
    config: UpstreamConfig,
    principal: Principal,
    address: string | undefined,
    env: Cloudflare.Env,
    signal: AbortSignal,
  ): [string, ClientOptions] {
    const { url, fetch, send, headers } = transportOf(config, env, {
      ...(principal.credential === undefined ? {} : { credential: principal.credential }),
      ...(address === undefined ? {} : { address }),
      listing: principal.listing === true,
    });
    return [
      url,
      {
        fetch,
        ...(send ? { send } : {}),
        headers,
        clientInfo: { name: "edgemcp-hub", version: "0.1.0" },
        capabilities: principal.capabilities,
        handlers: relayHandlers(principal.capabilities),
        // A pooled client serves many calls and no one listens to it between them: a 2025
        // upstream's background stream would hold a connection open for nothing.
        backgroundStream: false,
        signal,
      },
    ];
  }
}

/** Whose clients and quota a connection counts toward: the hub's listing, an address, or a subject. */
function poolCaller(principal: Principal, address: string | undefined): string {
  if (principal.listing) return "listing";
  return address === undefined ? `subject:${principal.subject}` : `address:${address}`;
}
