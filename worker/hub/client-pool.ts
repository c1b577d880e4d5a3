import {
  connect,
  McpError,
  type ClientOptions,
  type InputHandlers,
  type McpClient,
} from "../../shared/client/index.ts";
import type { ClientCapabilities } from "../../shared/protocol/capabilities.ts";
import { abortable } from "../../shared/abortable.ts";
import { transportOf, type UpstreamConfig } from "./upstreams.ts";

const MAX_CLIENTS = 256;

/** Who a hub request is for: the upstream sees the same capabilities (and, nearby, credentials). */
export type Principal = {
  subject: string;
  credential?: string;
  capabilities: ClientCapabilities;
  /** The hub's own catalog reader (lists, nothing else), never a caller's client. */
  listing?: true;
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
 */
export class ClientPool {
  readonly #clients = new Map<string, Promise<McpClient>>();

  constructor(
    private readonly upstreams: ReadonlyMap<string, UpstreamConfig>,
    /** How long connecting to an upstream may take. */
    private readonly connectTimeoutMs: number,
  ) {}

  client(
    upstream: string,
    principal: Principal,
    env: Cloudflare.Env,
    signal: AbortSignal,
  ): Promise<McpClient> {
    const config = this.upstreams.get(upstream);
    if (!config) return Promise.reject(new Error(`The hub has no upstream named "${upstream}".`));
    // The credential is part of the key: a pooled client forwards the one it was created with.
    const key = `${upstream}\n${principal.listing ? "listing" : "caller"}\n${principal.subject}\n${principal.credential ?? ""}\n${JSON.stringify(principal.capabilities)}`;
    let client = this.#clients.get(key);
    if (!client) {
      // A connect that outlives its caller or the timeout is dropped, even if the upstream never
      // answers; callers that find it pending wait for it as long as their own signal allows.
      const connecting = AbortSignal.any([signal, AbortSignal.timeout(this.connectTimeoutMs)]);
      const { url, fetch, forwardCredentials } = transportOf(config, env, principal.listing);
      const headers = {
        ...("headers" in config ? config.headers : {}),
        ...(forwardCredentials && principal.credential
          ? { Authorization: principal.credential }
          : {}),
      };
      const options: ClientOptions = {
        fetch,
        headers,
        clientInfo: { name: "edgemcp-hub", version: "0.1.0" },
        capabilities: principal.capabilities,
        handlers: relayHandlers(principal.capabilities),
        signal: connecting,
      };
      const pending = abortable(connect(url, options), connecting);
      // Only this entry: once evicted, the key may hold a newer client for the same principal.
      pending.catch(() => {
        if (this.#clients.get(key) === pending) this.#clients.delete(key);
      });
      client = pending;
      if (this.#clients.size >= MAX_CLIENTS)
        this.#clients.delete(this.#clients.keys().next().value ?? "");
      this.#clients.set(key, client);
    }
    return abortable(client, signal);
  }
}
